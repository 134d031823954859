// The events the site lists. Names are unique: the search box goes straight to an
// event whose name was typed exactly.
window.EVENTS = [
  { id: 42, name: 'Jazz Night', city: 'Paris', cat: 'music' },
  { id: 12, name: 'Louvre Late', city: 'Paris', cat: 'art' },
  { id: 19, name: 'Bistro Tour', city: 'Paris', cat: 'food' },
  { id: 51, name: 'Paris Organ Recital', city: 'Paris', cat: 'music' },
  { id: 7, name: 'Ramen Walk', city: 'Tokyo', cat: 'food' },
  { id: 23, name: 'Taiko Drums', city: 'Tokyo', cat: 'music' },
  { id: 8, name: 'Sushi Class', city: 'Tokyo', cat: 'food' },
  { id: 31, name: 'Gallery Crawl', city: 'Berlin', cat: 'art' },
  { id: 35, name: 'Techno Club Night', city: 'Berlin', cat: 'music' },
];
window.CITIES = ['Paris', 'Tokyo', 'Berlin'];
window.CATEGORIES = [['music', 'Music'], ['food', 'Food'], ['art', 'Art']];
