import { ButtonStyle, ComponentType } from 'discord.js';
import type { ChatInputCommand } from '../../src/interaction/command.js';
import type { AppServices } from '../../src/app/services.js';
import { UserError } from '../../src/interaction/errors.js';
import { UpstreamError } from '../../src/interaction/upstream-error.js';
import { CANARY_TOKEN } from './bot.js';

/** A command that exercises the router's paths without any upstream. */
export const probe: ChatInputCommand<AppServices> = {
  kind: 'chat',
  data: { name: 'probe', description: 'test probe', options: [{ type: 3, name: 'mode', description: 'mode', required: true }] },
  async execute(ctx) {
    const mode = ctx.options.getString('mode');
    if (mode === 'user-error') throw new UserError('That input is not valid.');
    if (mode === 'crash') throw new Error(`internal detail with ${CANARY_TOKEN}`);
    if (mode === 'upstream') throw new UpstreamError('geojs', 'unavailable', 'GeoJS answered 503');
    if (mode === 'defer-then-crash') {
      await ctx.defer({ ephemeral: false });
      throw new Error('after defer');
    }
    if (mode === 'slow') {
      await new Promise((resolve) => setTimeout(resolve, 2_600));
      return { content: 'finally' };
    }
    if (mode === 'mention') return { content: '@everyone <@&123> hello' };
    if (mode === 'pager') return pagerPayload('page 1');
    if (mode === 'progress') {
      await ctx.progress('⏳ queued, about 5 s', { ephemeral: false });
      return { embeds: [{ title: 'done' }] };
    }
    return { content: `echo ${mode}` };
  },
};

function pagerPayload(content: string) {
  return {
    content,
    components: [
      {
        type: ComponentType.ActionRow as const,
        components: [
          { type: ComponentType.Button as const, style: ButtonStyle.Primary as const, custom_id: 'probe:next', label: 'Next' },
          { type: ComponentType.Button as const, style: ButtonStyle.Link as const, url: 'https://example.com/', label: 'Page' },
        ],
      },
    ],
    disableComponentsAfterMs: 400,
  };
}

probe.componentPrefix = 'probe';
probe.handleComponent = async (ctx) => {
  if (ctx.customId === 'probe:follow-up') {
    await ctx.deferUpdate();
    return { reply: { ...pagerPayload('a new message'), ephemeral: true } };
  }
  return { update: pagerPayload('page 2') };
};


/** Defers, then answers after a second: an interaction still in flight when a test stops the bot. */
export const slowCommand: ChatInputCommand<AppServices> = {
  kind: 'chat',
  data: { name: 'slow', description: 'takes a while' },
  async execute(ctx) {
    await ctx.defer({ ephemeral: false });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    return { content: 'done after all' };
  },
};
