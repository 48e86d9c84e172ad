// A server's input schema without the keywords that run its regular expressions (mcp-schema.ts,
// issue 40 item 10): pattern, format and patternProperties go at every depth a schema can sit,
// names that are data (a property called "pattern") stay, and what patternProperties let through
// is still let through.
import { describe, expect, it } from 'vitest';
import { withoutServerPatterns } from '../../../../src/main/node/mcp/mcp-schema';

const EVIL = { type: 'string', pattern: '^(a+)+$', format: 'email' };
const CLEAN = { type: 'string' };

describe('withoutServerPatterns', () => {
  it('drops pattern and format, keeping a property named "pattern" and data keywords', () => {
    const schema = {
      type: 'object',
      properties: { pattern: EVIL, format: { type: 'string', enum: ['pattern'] } },
      required: ['pattern'],
      default: { pattern: '^(a+)+$' },
    };
    expect(withoutServerPatterns(schema)).toEqual({
      type: 'object',
      properties: { pattern: CLEAN, format: { type: 'string', enum: ['pattern'] } },
      required: ['pattern'],
      default: { pattern: '^(a+)+$' },
    });
  });

  it('reaches $defs, definitions, items (one or a tuple), prefixItems, combinators, not, if/then/else', () => {
    const schema = {
      $defs: { a: EVIL },
      definitions: { b: EVIL },
      properties: {
        list: { type: 'array', items: EVIL, contains: EVIL },
        tuple: { type: 'array', items: [EVIL], prefixItems: [EVIL] },
        any: { anyOf: [EVIL, { allOf: [EVIL] }], oneOf: [EVIL], not: EVIL },
        cond: { if: EVIL, then: EVIL, else: EVIL },
        map: { type: 'object', additionalProperties: EVIL, propertyNames: EVIL },
      },
    };
    expect(JSON.stringify(withoutServerPatterns(schema))).not.toMatch(/pattern|format/);
    expect(withoutServerPatterns(schema)).toMatchObject({
      $defs: { a: CLEAN },
      properties: { tuple: { items: [CLEAN] } },
    });
  });

  it('patternProperties: open stays open, closed takes the pattern schemas as additionalProperties', () => {
    const open = { type: 'object', patternProperties: { '^(a+)+$': EVIL } };
    expect(withoutServerPatterns(open)).toEqual({ type: 'object' });
    const closed = {
      type: 'object',
      patternProperties: { '^x': EVIL, '^y': { type: 'number' } },
      additionalProperties: false,
    };
    expect(withoutServerPatterns(closed)).toEqual({
      type: 'object',
      additionalProperties: { anyOf: [CLEAN, { type: 'number' }] },
    });
    const one = { patternProperties: { '^x': EVIL }, additionalProperties: false };
    expect(withoutServerPatterns(one)).toEqual({ additionalProperties: CLEAN });
    const schema = { patternProperties: { '^x': EVIL }, additionalProperties: { type: 'boolean' } };
    expect(withoutServerPatterns(schema)).toEqual({ additionalProperties: { anyOf: [{ type: 'boolean' }, CLEAN] } });
  });

  it('leaves what is not an object schema as it is', () => {
    expect(withoutServerPatterns(true)).toBe(true);
    expect(withoutServerPatterns(undefined)).toBeUndefined();
    expect(withoutServerPatterns({ dependencies: { a: ['b'] } })).toEqual({ dependencies: { a: ['b'] } });
  });
});
