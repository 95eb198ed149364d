import { z } from 'zod';
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from '../../shared/storable-text.js';

/**
 * An id in a REST path, e.g. `pathId('pipe_')`. Text the database cannot take is refused here,
 * naming the path parameter: the worker would name the field of its bus contract, which for
 * /v1/pipelines/{id}/stages is pipeline_id and for a delivery's {delivery_id} is id.
 */
export function pathId(prefix: string) {
  return z.string().max(64).refine(isStorableText, { message: UNSTORABLE_TEXT_MESSAGE }).describe(`${prefix}…`);
}
