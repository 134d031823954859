//! `every_variant!`: the list of a unit-only enum's variants, kept whole by the
//! compiler. Its own module, a leaf, because the enums that use it live all over the core
//! while `terms.rs`, which reads the lists, imports those enums.

/// `ALL` for a unit-only enum: every variant, in the order listed (the order the terms
/// file lists them in). The match stops compiling when a variant is added to the enum
/// but not here, so `ALL`, and the terms file with it, cannot fall behind.
macro_rules! every_variant {
    ($ty:ident { $($variant:ident),+ $(,)? }) => {
        impl $ty {
            /// Every variant (`crate::variants::every_variant`).
            pub const ALL: &'static [$ty] = &[$($ty::$variant),+];
        }
        const _: fn($ty) = |value| match value {
            $($ty::$variant)|+ => {}
        };
    };
}
pub(crate) use every_variant;
