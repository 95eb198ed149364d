import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Scope } from '../../shared/auth/scopes.js';
import type { BusClient } from '../../shared/bus/bus-client.js';
import type { Operation, OperationInput, OperationOutput } from '../../shared/bus/operation.js';
import type { ResolvedCredential } from '../request-state.js';

/** What a tool runs with: the connection's credential, and the bus to the workers. */
export interface ToolCall {
  credential: ResolvedCredential;
  requestId: string;
  run<Op extends Operation>(op: Op, input: OperationInput<Op>): Promise<OperationOutput<Op>>;
}

export function toolCall(bus: BusClient, credential: ResolvedCredential, requestId: string): ToolCall {
  return {
    credential,
    requestId,
    run: async (op, input) => (await bus.call(op, input, { context: credential.context, requestId })).result,
  };
}

/**
 * One tool, declared once: its schemas (input, output), annotations, the scopes that
 * allow it (any one), and whether it changes data (such tools are listed only to
 * connections that may write).
 */
export interface ToolSpec<I extends z.ZodRawShape = z.ZodRawShape, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  scopes: readonly Scope[];
  writes: boolean;
  annotations: Omit<ToolAnnotations, 'title'>;
  input: I;
  output: O;
  run(args: z.output<z.ZodObject<I>>, call: ToolCall): Promise<z.input<O>>;
}

/** A tool with its schemas built once (servers are built per request; schemas need not be). */
export interface ToolDefinition<I extends z.ZodRawShape = z.ZodRawShape, O extends z.ZodObject = z.ZodObject> extends ToolSpec<I, O> {
  inputSchema: z.ZodObject;
  /** A fresh object: a schema registered under an OpenAPI id would render as a bare $ref, and tools must declare an object. */
  outputSchema: z.ZodObject;
}

export function defineTool<I extends z.ZodRawShape, O extends z.ZodObject>(tool: ToolSpec<I, O>): ToolDefinition<I, O> {
  return { ...tool, inputSchema: z.object(tool.input), outputSchema: z.object(tool.output.shape) };
}

export const READ_ONLY: Omit<ToolAnnotations, 'title'> = { readOnlyHint: true, destructiveHint: false, openWorldHint: false };
export const CREATES: Omit<ToolAnnotations, 'title'> = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
export const CHANGES: Omit<ToolAnnotations, 'title'> = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };
