import { ButtonStyle, ComponentType, MessageFlags } from 'discord.js';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toApiMessage } from '../../src/discord/api-message.js';
import { ComponentExpiry } from '../../src/interaction/component-expiry.js';
import type { MessageEdit } from '../../src/interaction/routed-interaction.js';
import { componentPayloadError } from '../fakes/discord-components.js';

/** Idle components switched off, however deep a Components V2 layout holds them. */
describe('ComponentExpiry', () => {
  afterEach(() => vi.useRealTimers());

  it('disables the buttons and menus nested in a layout, keeps link buttons, and edits it as Components V2', async () => {
    vi.useFakeTimers();
    const edits: MessageEdit[] = [];
    const expiry = new ComponentExpiry(pino({ level: 'silent' }));
    const button = { type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: 'wp:F', label: '▶' } as const;
    const link = { type: ComponentType.Button, style: ButtonStyle.Link, url: 'https://wallhaven.cc/w/abc123', label: 'Open' } as const;
    const menu = { type: ComponentType.StringSelect as const, custom_id: 'wp:P', options: [{ label: '1', value: '0' }] };
    expiry.schedule(
      'root',
      {
        layout: [
          {
            type: ComponentType.Container,
            components: [
              { type: ComponentType.TextDisplay, content: 'Grid' },
              { type: ComponentType.ActionRow, components: [menu] },
              { type: ComponentType.ActionRow, components: [button, link] },
              { type: ComponentType.Section, components: [{ type: ComponentType.TextDisplay, content: 'x' }], accessory: { ...button, custom_id: 'wp:B' } },
            ],
          },
        ],
        disableComponentsAfterMs: 1_000,
      },
      async (edit) => void edits.push(edit),
    );
    await vi.advanceTimersByTimeAsync(1_000);
    expect(edits).toHaveLength(1);
    const text = JSON.stringify(edits[0]);
    expect(text.match(/"disabled":true/g)).toHaveLength(3);
    expect(text).toContain('"url":"https://wallhaven.cc/w/abc123","label":"Open"}');
    const { body } = toApiMessage(edits[0]!);
    expect(body.flags).toBe(MessageFlags.IsComponentsV2);
    expect(body).not.toHaveProperty('content');
    expect(componentPayloadError(body, body.flags!)).toBeUndefined();
  });
});
