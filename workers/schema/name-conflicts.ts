import { uniqueViolation } from '../../shared/db/sql.js';
import { ConflictError } from '../../shared/errors.js';

/** Turns the name-uniqueness violations of pipelines and stages into 409s naming `name`. */
export function nameConflict(error: unknown, name: string): Error {
  const constraint = uniqueViolation(error);
  if (constraint === 'pipelines_workspace_name_key') return new ConflictError(`A pipeline called "${name}" already exists.`, 'name');
  if (constraint === 'stages_pipeline_name_key') return new ConflictError(`This pipeline already has a stage called "${name}".`, 'name');
  return error instanceof Error ? error : new Error(String(error));
}
