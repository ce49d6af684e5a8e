import { ApplicationCommandOptionType, InteractionType } from 'discord.js';
import { describe, expect, it } from 'vitest';
import type { InteractionResponder } from '../../src/interaction/routed-interaction.js';
import { parseApiInteraction, toRoutedInteraction } from '../../src/discord/api-interaction.js';
import { DEFAULT_MAX_BODY_BYTES } from '../../src/http/interactions-server.js';
import { nestedOptionsBody } from '../helpers/hostile-input.js';

const { SubcommandGroup, Subcommand, String: Text } = ApplicationCommandOptionType;

describe('HTTP mode: option nesting', () => {
  it('reads the deepest nesting Discord sends: group → subcommand → option', () => {
    const payload = parseApiInteraction({
      id: '1',
      application_id: '2',
      token: 't',
      type: InteractionType.ApplicationCommand,
      user: { id: '3', username: 'u' },
      data: {
        name: 'ip',
        type: 1,
        options: [{ name: 'net', type: SubcommandGroup, options: [{ name: 'lookup', type: Subcommand, options: [{ name: 'addresses', type: Text, value: '8.8.8.8' }] }] }],
      },
    });
    expect(payload).toBeDefined();
    const routed = toRoutedInteraction(payload!, {} as InteractionResponder);
    expect(routed?.kind === 'chat' && [routed.options.subcommand, routed.options.getString('addresses')]).toEqual(['lookup', '8.8.8.8']);
  });

  it('refuses one level more than Discord ever nests', () => {
    expect(parseApiInteraction(JSON.parse(nestedOptionsBody(3)))).toBeDefined();
    expect(parseApiInteraction(JSON.parse(nestedOptionsBody(4)))).toBeUndefined();
  });

  it('refuses options nested thousands deep within the body limit without overflowing the stack', () => {
    const body = nestedOptionsBody(7_500);
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(DEFAULT_MAX_BODY_BYTES);
    expect(parseApiInteraction(JSON.parse(body))).toBeUndefined();
  });
});
