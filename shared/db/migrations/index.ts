import { Migration0001InitialSchema } from './0001-initial-schema.js';

/** Every migration, in order. Listed explicitly so the compiled service needs no file discovery. */
export const MIGRATIONS = [Migration0001InitialSchema];
