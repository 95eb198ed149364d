import { nameKey } from '../../shared/contracts/common.js';
import { describeSchema } from '../../shared/contracts/schema.js';
import { ID_PREFIXES } from '../../shared/ids.js';
import type { CrmError } from '../../shared/errors.js';
import type { ToolCall, ToolDefinition } from './tool.js';
import { namedKindTakenBy } from './wrong-kind-id-hint.js';

const ID_FORMS = Object.values(ID_PREFIXES).map((prefix) => `${prefix}_`);

type Match = { id: string; archived: boolean; pipeline?: { id: string; name: string } };

const described = (m: Match) => `${m.id}${m.pipeline === undefined ? '' : ` (pipeline "${m.pipeline.name}", ${m.pipeline.id}${m.archived ? ', archived' : ''})`}`;

/**
 * A pipeline's or stage's name where its id goes (pipeline_id: "Sales"), refused by the
 * worker as no such id: the hint names the id(s) of that name, so the model retries in one
 * step. Never resolved in its place (a write must not act on a guess), and looked up through
 * the caller's own credential, so only its workspace's names are read. Several of one name
 * (stages of different pipelines) are all named, to choose from. Undefined when the argument
 * takes no pipeline or stage, the value is an id, the tool takes the name under another
 * argument (update_deal's stage, said by wrongKindIdHint), nothing has that name, or the
 * design cannot be read.
 */
export async function nameForIdMatches(error: CrmError, tool: ToolDefinition, args: Record<string, unknown> | undefined, call: ToolCall): Promise<string | undefined> {
  const param = error.details.param;
  if (error.code !== 'not_found' || typeof param !== 'string') return undefined;
  const value = args?.[param];
  if (typeof value !== 'string' || value.trim() === '' || ID_FORMS.some((prefix) => value.trim().startsWith(prefix))) return undefined;
  const kind = namedKindTakenBy(tool, param);
  if (kind !== 'pipeline' && kind !== 'stage') return undefined;
  const byName = param.replace(/_id$/, '');
  if (byName !== param && Object.hasOwn(tool.inputSchema.shape, byName)) return undefined;
  let design;
  try {
    design = await call.run(describeSchema, {});
  } catch {
    return undefined;
  }
  const name = nameKey(value);
  const matches: Match[] =
    kind === 'pipeline'
      ? design.pipelines.filter((p) => nameKey(p.name) === name).map((p) => ({ id: p.id, archived: false }))
      : design.pipelines.flatMap((p) => p.stages.filter((s) => nameKey(s.name) === name).map((s) => ({ id: s.id, archived: s.archived, pipeline: { id: p.id, name: p.name } })));
  // A stage of the pipeline the same call names, when it has one of that name; else those of every pipeline, with their pipeline_id.
  const pipelineId = Object.hasOwn(tool.inputSchema.shape, 'pipeline_id') ? args?.pipeline_id : undefined;
  const inPipeline = matches.filter((m) => m.pipeline?.id === pipelineId);
  const near = inPipeline.length > 0 ? inPipeline : matches;
  // An active stage wins over archived ones of its name, as it does where the workers look stages up by name.
  const active = near.filter((m) => !m.archived);
  const candidates = active.length > 0 ? active : near;
  if (candidates.length === 0) return undefined;
  const text = value.trim();
  const idForm = `${ID_PREFIXES[kind]}_…`;
  const only = candidates.length === 1 ? candidates[0]! : undefined;
  if (only) {
    const withPipeline = only.pipeline && pipelineId !== undefined && only.pipeline.id !== pipelineId ? ` and pipeline_id "${only.pipeline.id}"` : '';
    return `"${text}" is the name of the ${kind} ${described(only)}, not an id (${idForm}): call again with ${param} "${only.id}"${withPipeline}.`;
  }
  const andPipeline = kind === 'stage' && pipelineId !== undefined ? ' (and its pipeline_id)' : '';
  return `"${text}" is not an id (${idForm}) but a name ${candidates.length} ${kind}s have: ${candidates.map(described).join('; ')}. Call again with the ${param} of the one meant${andPipeline}; ask the user which, if the request does not say.`;
}
