import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { McpServerDefinition } from '../../shared/auth/mcp-servers.js';
import type { Scope } from '../../shared/auth/scopes.js';
import { IdempotencyKey } from '../../shared/contracts/common.js';
import type { BusClient } from '../../shared/bus/bus-client.js';
import type { RawReply } from '../../shared/bus/reply.js';
import { InternalError } from '../../shared/errors.js';
import { scopesOn, type Operation, type OperationInput, type OperationOutput } from '../../shared/bus/operation.js';
import type { ResolvedCredential } from '../request-state.js';
import { toolJsonSchema, type JsonObjectSchema } from './portable-json-schema.js';
import { ToolError } from './tool-error-result.js';
import { expectedVersionsOf, UNCHANGED_SINCE, unchangedSinceArgument, type VersionedRecord } from './unchanged-since.js';

/** What a tool runs with: the connection's credential, and the bus to the workers. */
export interface ToolCall {
  credential: ResolvedCredential;
  requestId: string;
  run<Op extends Operation>(op: Op, input: OperationInput<Op>, options?: { idempotencyKey?: string }): Promise<OperationOutput<Op>>;
  /** The same call, its reply still encoded (a page's rows as the worker wrote them). */
  runRaw<Op extends Operation>(op: Op, input: OperationInput<Op>): Promise<RawReply>;
}

export function toolCall(bus: BusClient, credential: ResolvedCredential, requestId: string): ToolCall {
  return {
    credential,
    requestId,
    run: async (op, input, options) => (await bus.call(op, input, { context: credential.context, requestId, idempotencyKey: options?.idempotencyKey })).result,
    runRaw: (op, input) => bus.callRaw(op, input, { context: credential.context, requestId }),
  };
}

/** Safe retries for agents: the same rule as the REST Idempotency-Key header. */
const IdempotencyKeyArgument = IdempotencyKey.optional().describe(
  'Any unique string for this request (e.g. a UUID). Sent again with the same arguments within 24 hours, the call answers as before instead of creating a second one.',
);

/** Writes that create something new and honour an idempotency key take one as an argument. */
function takesIdempotencyKey(op: Operation): boolean {
  return op.idempotent && !op.readOnly && !op.destructive;
}

type Args<I extends z.ZodRawShape> = z.output<z.ZodObject<I>>;

/**
 * One tool, declared once: the operation it calls, its own schemas (arguments, result),
 * and how they map onto the operation's. Its scopes, whether it changes data and its
 * annotations are the operation's (see destructiveArguments).
 */
export interface ToolSpec<Op extends Operation = Operation, I extends z.ZodRawShape = z.ZodRawShape, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  op: Op;
  input: I;
  output: O;
  /** The operation's input from the arguments; by default the arguments themselves. */
  opInput?(args: Args<I>): OperationInput<Op>;
  /**
   * The result from the operation's output (and the server offering the tool; the call, for
   * a result that names what the output refers to); by default that output.
   */
  result?(output: OperationOutput<Op>, server: McpServerDefinition, call: ToolCall): z.input<O> | Promise<z.input<O>>;
  /**
   * The result is the operation's page with its rows under this name and the rest of its
   * position (has_more, next_cursor, applied_range…) beside them, `limit` aside. Such a tool
   * answers with the worker's bytes spliced in (see ToolDefinition.runEncoded).
   */
  rows?: string;
  /**
   * Some arguments change what exists although the operation creates (create_pipeline's
   * is_default takes the default from another pipeline): the tool is annotated destructive,
   * so clients that confirm such calls ask first. It still takes an idempotency key.
   */
  destructiveArguments?: true;
  /**
   * The operation's errors name some arguments as its REST path does (`id` for the pipeline of
   * a stage, `/v1/pipelines/{id}/stages`): the names this tool's arguments have instead.
   */
  errorParams?: Readonly<Record<string, string>>;
  /**
   * Arguments a model reaches for that this tool leaves to others, each with the hint that says
   * what to do instead. Otherwise "call again with only the valid parameters" is followed to a
   * call that succeeds and changes nothing (update_custom_field with only its id), reported
   * to the user as done.
   */
  notTaken?: Readonly<Record<string, string>>;
  /**
   * An update's arguments that name the record it changes (`id`; update_stage's pipeline_id
   * and stage_id): a call with none but these is refused (nothing-to-change.ts).
   */
  identifiedBy?: readonly string[];
  /**
   * Changes this contact or deal in place: the tool takes unchanged_since, the operation's
   * expected_versions (unchanged-since.ts), and a refusal says the record changed since.
   * Only for an operation that takes expected_versions.
   */
  unchangedSince?: 'expected_versions' extends keyof OperationInput<Op> ? VersionedRecord : never;
}

/** Without an input mapping, the arguments must be the operation's input. */
type InputMapping<Op extends Operation, I extends z.ZodRawShape> = Args<I> extends OperationInput<Op> ? unknown : { opInput(args: Args<I>): OperationInput<Op> };
/** Without a result mapping, the operation's output must be the result. */
type ResultMapping<Op extends Operation, O extends z.ZodObject> = OperationOutput<Op> extends z.input<O>
  ? unknown
  : { result(output: OperationOutput<Op>, server: McpServerDefinition, call: ToolCall): z.input<O> | Promise<z.input<O>> };

export function defineTool<Op extends Operation, I extends z.ZodRawShape, O extends z.ZodObject>(
  tool: ToolSpec<Op, I, O> & InputMapping<Op, I> & ResultMapping<Op, O>,
): ToolSpec<Op, I, O> {
  return tool;
}

/** A tool whose result is its operation's page, the rows under the name `rows` (see ToolSpec.rows). */
export function definePageTool<Op extends Operation, I extends z.ZodRawShape, O extends z.ZodObject>(
  tool: Omit<ToolSpec<Op, I, O>, 'result'> & { rows: string } & InputMapping<Op, I>,
): ToolSpec<Op, I, O> {
  return tool;
}

type Annotations = Omit<ToolAnnotations, 'title'>;

/** Annotations by what the operation does (see Operation.destructive); nothing reaches outside the workspace. */
const ANNOTATIONS: Record<'reads' | 'creates' | 'changes', Annotations> = {
  reads: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
  creates: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  changes: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
};

export function annotationsOf(op: Pick<Operation, 'readOnly' | 'destructive'>): Annotations {
  return ANNOTATIONS[op.readOnly ? 'reads' : op.destructive ? 'changes' : 'creates'];
}

/** A tool as one server offers it: its schemas built once (servers are built per request; schemas need not be). */
export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  op: Operation;
  /** Strict: an argument the tool does not have is an error (tool-arguments.ts). */
  inputSchema: z.ZodObject;
  outputSchema: z.ZodObject;
  /** What tools/list shows: portable JSON Schema 2020-12, made once. */
  inputJsonSchema: JsonObjectSchema;
  outputJsonSchema: JsonObjectSchema;
  /** The scopes that allow it on this server (any one); none: any connection. */
  scopes: readonly Scope[];
  /** Changes data: listed only to connections that may write. */
  writes: boolean;
  annotations: Annotations;
  /** See ToolSpec.errorParams. */
  errorParams?: Readonly<Record<string, string>>;
  /** See ToolSpec.notTaken. */
  notTaken?: Readonly<Record<string, string>>;
  /** See ToolSpec.identifiedBy. */
  identifiedBy?: readonly string[];
  /** See ToolSpec.unchangedSince. */
  unchangedSince?: VersionedRecord;
  run(args: Record<string, unknown>, call: ToolCall): Promise<Record<string, unknown>>;
  /**
   * For a tool with `rows`: the same result as JSON text, the worker's rows spliced in as
   * they came (no parse, no serialisation of a page of rows in the gateway).
   */
  runEncoded?(args: Record<string, unknown>, call: ToolCall): Promise<string>;
}

/** The scopes a server accepts: what a grant to it can carry. */
export function serverScopes(server: McpServerDefinition): readonly Scope[] {
  return [...server.readScopes, ...server.writeScopes];
}

function offerTool(server: McpServerDefinition, tool: ToolSpec): ToolDefinition {
  const { op, opInput, result, rows, destructiveArguments, unchangedSince } = tool;
  const keyed = takesIdempotencyKey(op);
  const inputSchema = z.strictObject({
    ...tool.input,
    ...(unchangedSince ? { [UNCHANGED_SINCE]: unchangedSinceArgument(unchangedSince) } : {}),
    ...(keyed ? { idempotency_key: IdempotencyKeyArgument } : {}),
  });
  const outputSchema = z.object(tool.output.shape);
  const opInputOf = (args: Record<string, unknown>) => {
    const { idempotency_key: idempotencyKey, [UNCHANGED_SINCE]: since, ...rest } = args as Record<string, unknown> & { idempotency_key?: string };
    const input: Record<string, unknown> = opInput ? (opInput(rest as never) as Record<string, unknown>) : rest;
    const versions = unchangedSince ? expectedVersionsOf(since) : undefined;
    return { input: versions ? { ...input, expected_versions: versions } : input, idempotencyKey: keyed ? idempotencyKey : undefined };
  };
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    op,
    inputSchema,
    outputSchema,
    inputJsonSchema: toolJsonSchema(inputSchema, 'input'),
    // Either the result or a tool error: clients (the SDK's among them) check an error's structuredContent against it too.
    outputJsonSchema: toolJsonSchema(z.union([outputSchema, ToolError]), 'output'),
    scopes: scopesOn(op, serverScopes(server)),
    writes: !op.readOnly,
    annotations: destructiveArguments ? { ...annotationsOf(op), destructiveHint: true } : annotationsOf(op),
    ...(tool.errorParams ? { errorParams: tool.errorParams } : {}),
    ...(tool.notTaken ? { notTaken: tool.notTaken } : {}),
    ...(tool.identifiedBy ? { identifiedBy: tool.identifiedBy } : {}),
    ...(unchangedSince ? { unchangedSince } : {}),
    run: async (args, call) => {
      const { input, idempotencyKey } = opInputOf(args);
      const output = await call.run(op, input, { idempotencyKey });
      if (result) return (await result(output, server, call)) as Record<string, unknown>;
      return rows ? pageAsRows(output as Page, rows) : (output as Record<string, unknown>);
    },
    ...(rows
      ? {
          runEncoded: async (args: Record<string, unknown>, call: ToolCall) => {
            const reply = await call.runRaw(op, opInputOf(args).input);
            if (!reply.head.ok || !reply.head.page) throw new InternalError(`${tool.name}: the reply of ${op.name} is not a page`);
            const { limit: _limit, ...position } = reply.head.page;
            const rest = JSON.stringify(position);
            return `{${JSON.stringify(rows)}:${reply.body.toString('utf8')}${rest === '{}' ? '' : `,${rest.slice(1, -1)}`}}`;
          },
        }
      : {}),
  };
}

type Page = { data: unknown; limit: number } & Record<string, unknown>;

/** A page as a `rows` tool gives it: the rows under their name, the position beside them, `limit` aside. */
function pageAsRows({ data, limit: _limit, ...position }: Page, rows: string): Record<string, unknown> {
  return { [rows]: data, ...position };
}

/** A server's catalogue: each tool with the scopes that server accepts for its operation. */
export function toolCatalogue(server: McpServerDefinition, tools: readonly ToolSpec[]): readonly ToolDefinition[] {
  return tools.map((tool) => offerTool(server, tool));
}
