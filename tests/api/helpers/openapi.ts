/**
 * The ingestion API's contract: docs/ingest.openapi.yaml, the description integrators generate clients from. The
 * document is validated as OpenAPI 3.1 (swagger-parser), and `expectDocumented` checks a real answer against it:
 * its status is one the operation lists, its media type is the documented one, and its body matches the schema
 * (Ajv, JSON Schema 2020-12, as OpenAPI 3.1 uses), strictly: a property the schema does not name fails, so a
 * field added to an answer has to be documented too.
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { expect } from 'vitest';

const DOCUMENT = 'docs/ingest.openapi.yaml';

interface MediaType {
  schema?: Record<string, unknown>;
}
interface OpenApiResponse {
  content?: Record<string, MediaType>;
}
interface Operation {
  responses: Record<string, OpenApiResponse>;
}
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Record<string, unknown>> };
};

let loaded: Promise<Document> | undefined;
/** The document, validated and with every $ref resolved. */
function ingestOpenApi(): Promise<Document> {
  loaded ??= SwaggerParser.validate(DOCUMENT).then((doc) => doc as unknown as Document);
  return loaded;
}

/** A copy of a schema in which every object schema with `properties` allows no others. */
function strict(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(strict);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) out[k] = strict(v);
  if (out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
const validators = new Map<string, ValidateFunction>();

/** The compiled strict validator of a schema, once per key. */
function validatorFor(key: string, schema: Record<string, unknown>): ValidateFunction {
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile(strict(schema) as object);
    validators.set(key, validate);
  }
  return validate;
}

/** Checks a body against one of the document's component schemas (the CLI's `import --json` against Receipt). */
export async function expectMatchesSchema(name: string, body: unknown): Promise<void> {
  const schema = (await ingestOpenApi()).components.schemas[name];
  expect(schema, `components.schemas.${name} in ${DOCUMENT}`).toBeDefined();
  const validate = validatorFor(`#/components/schemas/${name}`, schema!);
  const ok = validate(body);
  expect(ok ? [] : validate.errors, `${name}: ${JSON.stringify(body).slice(0, 300)}`).toEqual([]);
}

/**
 * Checks an answer of `method path` (the document's path template, e.g. `/batches/{id}`) against the document.
 * Reads a clone, so the caller can still read the body.
 */
export async function expectDocumented(method: string, path: string, res: Response): Promise<void> {
  const doc = await ingestOpenApi();
  const operation = doc.paths[path]?.[method.toLowerCase()];
  expect(operation, `${method} ${path} in ${DOCUMENT}`).toBeDefined();
  const where = `${method} ${path} → ${res.status}`;
  const response = operation!.responses[String(res.status)];
  expect(response, `${where}: the status is not documented`).toBeDefined();
  const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
  const media = response!.content?.[type];
  expect(media?.schema, `${where}: no schema for ${type}`).toBeDefined();
  const validate = validatorFor(`${where} ${type}`, media!.schema!);
  const body: unknown = await res.clone().json();
  const ok = validate(body);
  expect(ok ? [] : validate.errors, `${where}: ${JSON.stringify(body).slice(0, 300)}`).toEqual([]);
}
