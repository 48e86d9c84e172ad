// An MCP server's input schema made safe to validate on the main thread (docs/mcp.md, "Tools"):
// pi validates a model's arguments against the tool's schema with TypeBox before the call, and a
// server's `pattern` such as `^(a+)+$` backtracks for minutes on 32 a's and a "!" (issue 40). The
// server validates its own input, so `pattern`, `format` and `patternProperties` are taken out,
// through every nested schema. Pure; mcp-tools.ts applies it to each tool a server announces.

type Json = unknown;
type SchemaObject = Record<string, Json>;

/** Keywords whose value is one schema. */
const ONE_SCHEMA = [
  'items',
  'additionalItems',
  'additionalProperties',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'contentSchema',
];
/** Keywords whose value is a list of schemas (`items` in its older tuple form too). */
const SCHEMA_LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];
/** Keywords whose value maps names (property names, definition names) to schemas. */
const SCHEMA_MAP = ['properties', '$defs', 'definitions', 'dependentSchemas', 'dependencies'];
/** What a regular expression runs for, or the validator checks by regular expressions. */
const DROPPED = ['pattern', 'format', 'patternProperties'];

const isObject = (value: Json): value is SchemaObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The schema without the keywords that run a server's regular expressions; anything else is kept as it is. */
export function withoutServerPatterns(schema: Json): Json {
  if (!isObject(schema)) return schema;
  const out: SchemaObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED.includes(key)) continue;
    if (SCHEMA_MAP.includes(key) && isObject(value)) out[key] = mapValues(value);
    else if (SCHEMA_LIST.includes(key) && Array.isArray(value)) out[key] = value.map(withoutServerPatterns);
    else if (ONE_SCHEMA.includes(key)) out[key] = withoutServerPatterns(value);
    else out[key] = value;
  }
  const patterned = isObject(schema.patternProperties) ? Object.values(schema.patternProperties) : [];
  if (patterned.length > 0) out.additionalProperties = widened(out.additionalProperties, patterned);
  return out;
}

function mapValues(map: SchemaObject): SchemaObject {
  // A name-keyed map (`properties: { pattern: … }`): the names are data, only the values are schemas.
  return Object.fromEntries(Object.entries(map).map(([name, value]) => [name, withoutServerPatterns(value)]));
}

/**
 * What additionalProperties becomes once patternProperties is gone: a property that matched a
 * pattern must still be let through, checked against one of the pattern's schemas. Left open
 * (absent or true) it stays open; closed or a schema, it takes the pattern schemas in.
 */
function widened(additional: Json, patterned: Json[]): Json {
  if (additional === undefined || additional === true) return additional;
  const schemas = patterned.map(withoutServerPatterns);
  const options = additional === false ? schemas : [additional, ...schemas];
  return options.length === 1 ? options[0] : { anyOf: options };
}
