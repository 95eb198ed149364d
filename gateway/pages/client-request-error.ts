import { undecodablePathError } from '../errors/undecodable-path.js';

/** A request the page refuses as the sender's mistake: its status and the words a person reads. */
export interface ClientRequestError {
  status: number;
  message: string;
  /** body-parser's kind of failure (e.g. entity.too.large), or path.undecodable, for the log line. */
  type: string | undefined;
}

/** Our words for body-parser's refusals of a form; any other exposed 4xx gets a general one. */
const MESSAGES: Record<string, string> = {
  'entity.too.large': 'The form is larger than this page accepts.',
  'parameters.too.many': 'The form has more fields than this page accepts.',
  'encoding.unsupported': 'The form is sent in an encoding this page does not accept.',
  'charset.unsupported': 'The form is sent in a character set this page does not accept.',
};

/**
 * An http-errors style error (body-parser's among them) that blames the request: a 4xx
 * `status` marked `expose`; or a path parameter the router could not decode. Anyone can send such a request, so it is an answer, not an
 * internal failure; null for anything else.
 */
export function clientRequestError(error: unknown): ClientRequestError | null {
  if (typeof error !== 'object' || error === null) return null;
  const undecodable = undecodablePathError(error);
  if (undecodable) return { status: 400, message: undecodable.message, type: 'path.undecodable' };
  const { status, expose, type } = error as { status?: unknown; expose?: unknown; type?: unknown };
  if (typeof status !== 'number' || status < 400 || status > 499 || expose !== true) return null;
  const kind = typeof type === 'string' ? type : undefined;
  const message = (kind !== undefined && Object.hasOwn(MESSAGES, kind) ? MESSAGES[kind] : undefined) ?? 'The request could not be read.';
  return { status, message, type: kind };
}
