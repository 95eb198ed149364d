import type { ImportCounts } from './import-tally.js';

/** What `crm import contacts` did: printed as the summary, or as one JSON object with --json. */
export interface ImportSummary extends ImportCounts {
  object: 'contact_import';
  /** Whether the whole file was read; the counts are what was done either way. */
  outcome: 'completed' | 'interrupted' | 'failed';
  workspace_id: string;
  file: string;
  errors_file: string;
  seconds: number;
  rows_per_second: number;
  /** Why it stopped part-way (the message also printed on stderr). */
  error?: string;
}
