import type { IncomingHttpHeaders } from 'node:http';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats, { type FormatsPlugin } from 'ajv-formats';

// ajv-formats is CommonJS: under NodeNext its function is the default export's `default`.
const addFormats = (formats as unknown as { default?: FormatsPlugin }).default ?? (formats as unknown as FormatsPlugin);

interface Parameter {
  in: string;
  name: string;
  required?: boolean;
  schema: object;
}
interface WebhookOperation {
  parameters: Parameter[];
  requestBody: { content: { 'application/json': { schema: object } } };
}
interface DocumentWithWebhooks {
  webhooks: Record<string, { post: WebhookOperation }>;
}

/**
 * Checks deliveries as a receiver generated from the OpenAPI document would read them: each
 * header the document's webhook names, and the body against its schema (JSON Schema 2020-12,
 * as OpenAPI 3.1 writes it, with the document's components to resolve references).
 */
export async function webhookContractOf(origin: string, name: string): Promise<(headers: IncomingHttpHeaders, body: string) => string[]> {
  const res = await fetch(`${origin}/v1/openapi.json`);
  const document = (await res.json()) as DocumentWithWebhooks;
  const operation = document.webhooks[name]?.post;
  if (!operation) throw new Error(`the document has no webhook ${name}`);
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true })).addFormat('idn-email', true);
  ajv.addSchema({ ...document, $id: 'openapi.json' });
  const bodyOk = ajv.compile({ $ref: `openapi.json#/webhooks/${name}/post/requestBody/content/application~1json/schema` });
  const headers = operation.parameters.filter((p) => p.in === 'header').map((p) => ({ ...p, check: ajv.compile(p.schema) }));
  return (received, body) => {
    const problems: string[] = [];
    for (const header of headers) {
      const value = received[header.name.toLowerCase()];
      if (value === undefined) {
        if (header.required) problems.push(`no ${header.name} header`);
      } else if (!header.check(value)) problems.push(`${header.name}: ${JSON.stringify(header.check.errors)}`);
    }
    if (!bodyOk(JSON.parse(body))) problems.push(`body: ${JSON.stringify(bodyOk.errors)}`);
    return problems;
  };
}
