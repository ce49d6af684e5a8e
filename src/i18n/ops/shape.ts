import type { Catalogue } from '../catalogue.js';

/** The ops card's words in one language: typed against English through the catalogue's `ops` key. */
export type OpsCatalogue = Catalogue['ops'];
