import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseApiInteraction } from '../../src/discord/api-interaction.js';
import { fuzzRuns } from '../helpers/fuzz-runs.js';

/**
 * The payload check is written by hand (it runs on every interaction); the zod schema it replaced
 * is kept here as the reference: for any JSON body, both accept or both refuse.
 */
const optionFields = {
  name: z.string(),
  type: z.number(),
  value: z.union([z.string(), z.number(), z.boolean()]).optional(),
  focused: z.boolean().optional(),
};
const leafOption = z.object({ ...optionFields, options: z.never().optional() });
const subcommandOption = z.object({ ...optionFields, options: z.array(leafOption).optional() });
const topOption = z.object({ ...optionFields, options: z.array(subcommandOption).optional() });
const apiUser = z.object({ id: z.string(), username: z.string() });
const apiAttachment = z.object({ id: z.string(), filename: z.string(), size: z.number(), url: z.string() });
const reference = z.object({
  id: z.string(),
  application_id: z.string(),
  token: z.string().min(1),
  type: z.number(),
  locale: z.string().optional(),
  guild_id: z.string().optional(),
  user: apiUser.optional(),
  member: z.object({ user: apiUser, permissions: z.string().optional() }).optional(),
  channel_id: z.string().optional(),
  channel: z.object({ id: z.string(), type: z.number(), nsfw: z.boolean().optional() }).optional(),
  context: z.number().optional(),
  authorizing_integration_owners: z.record(z.string(), z.unknown()).optional(),
  app_permissions: z.string().optional(),
  data: z
    .looseObject({
      name: z.string().optional(),
      type: z.number().optional(),
      options: z.array(topOption).optional(),
      target_id: z.string().optional(),
      resolved: z
        .looseObject({
          messages: z.record(z.string(), z.object({ id: z.string(), content: z.string(), attachments: z.array(apiAttachment).optional() })).optional(),
          attachments: z.record(z.string(), apiAttachment).optional(),
        })
        .optional(),
      custom_id: z.string().optional(),
      values: z.array(z.string()).optional(),
    })
    .optional(),
  message: z
    .looseObject({ id: z.string(), interaction_metadata: z.object({ id: z.string(), user: z.object({ id: z.string() }) }).optional() })
    .optional(),
});

/** Any JSON value, small: what a hostile or broken sender could put in any field. */
const anyJson = fc.jsonValue({ maxDepth: 2 });

/** `valid` most of the time, else absent or any JSON value: payloads close to the edge of acceptance. */
function field<T>(valid: fc.Arbitrary<T>): fc.Arbitrary<T | unknown> {
  return fc.oneof({ weight: 20, arbitrary: valid }, { weight: 1, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: anyJson });
}

/** An object of `fields`, those that came out undefined left out (absent), as JSON would leave them. */
function record(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Record<string, unknown>> {
  return fc.record(fields).map((value) => Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)));
}

const text = fc.string({ maxLength: 4 });
/** Doubles include NaN and the infinities (JSON's `1e999` parses to Infinity). */
const number = fc.oneof(fc.integer(), fc.double());
const user = record({ id: field(text), username: field(text) });
const attachment = record({ id: field(text), filename: field(text), size: field(number), url: field(text) });
/** Options nested up to five deep: one and two levels more than Discord sends are refused. */
const { option } = fc.letrec<{ option: Record<string, unknown> }>((tie) => ({
  option: record({
    name: field(text),
    type: field(number),
    value: field(fc.oneof(text, number, fc.boolean())),
    focused: field(fc.boolean()),
    options: fc.oneof({ depthSize: 'small', maxDepth: 5 }, fc.constant(undefined), field(fc.array(tie('option'), { maxLength: 2 }))),
  }),
}));
const payloads = record({
  id: field(text),
  application_id: field(text),
  token: field(text),
  type: field(number),
  locale: field(text),
  guild_id: field(text),
  user: field(user),
  member: field(record({ user: field(user), permissions: field(text) })),
  channel_id: field(text),
  channel: field(record({ id: field(text), type: field(number), nsfw: field(fc.boolean()) })),
  context: field(number),
  authorizing_integration_owners: field(fc.dictionary(text, anyJson, { maxKeys: 2 })),
  app_permissions: field(text),
  data: field(
    record({
      name: field(text),
      type: field(number),
      options: field(fc.array(option, { maxLength: 2 })),
      target_id: field(text),
      resolved: field(
        record({
          messages: field(fc.dictionary(text, record({ id: field(text), content: field(text), attachments: field(fc.array(attachment, { maxLength: 2 })) }), { maxKeys: 2 })),
          attachments: field(fc.dictionary(text, attachment, { maxKeys: 2 })),
        }),
      ),
      custom_id: field(text),
      values: field(fc.array(field(text), { maxLength: 2 })),
    }),
  ),
  message: field(record({ id: field(text), interaction_metadata: field(record({ id: field(text), user: field(record({ id: field(text) })) })) })),
});

describe('HTTP mode: the interaction payload check', () => {
  it('accepts and refuses exactly what the zod schema it replaced did, payloads near the edge of acceptance', () => {
    let accepted = 0;
    fc.assert(
      fc.property(payloads, (generated) => {
        const expected = reference.safeParse(generated).success;
        if (expected) accepted++;
        expect(parseApiInteraction(generated) !== undefined).toBe(expected);
      }),
      { numRuns: fuzzRuns(4_000) },
    );
    // The generator reaches both sides of the edge.
    expect(accepted).toBeGreaterThan(0);
  });

  it('accepts and refuses exactly what the zod schema did, for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (payload) => {
        expect(parseApiInteraction(payload) !== undefined).toBe(reference.safeParse(payload).success);
      }),
      { numRuns: fuzzRuns(2_000) },
    );
  });

  it('refuses an infinite number and an empty token, and takes null for no absent field', () => {
    const valid = { id: '1', application_id: '2', token: 't', type: 2 };
    expect(parseApiInteraction(valid)).toBe(valid);
    expect(parseApiInteraction(JSON.parse('{"id":"1","application_id":"2","token":"t","type":1e999}'))).toBeUndefined();
    expect(parseApiInteraction({ ...valid, token: '' })).toBeUndefined();
    expect(parseApiInteraction({ ...valid, guild_id: null })).toBeUndefined();
  });
});
