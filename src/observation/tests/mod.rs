//! Native tests of the observation core on synthetic CDP-shaped input.
//! Real captures from Chromium are tested in tests/observation_fixtures.rs.

mod bound;
mod builder;
mod frames;
mod pruning;
mod registry;
mod viewport;
