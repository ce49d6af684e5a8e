import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import type { ChatInputCommand, Command, MessageContextCommand } from '../../src/interaction/command.js';
import { ALL_APP_PERMISSIONS, SERVER_INSTALLATION, type AutocompleteChoice, type OptionValues } from '../../src/interaction/context.js';
import { UserError } from '../../src/interaction/errors.js';
import type { Reply } from '../../src/interaction/reply.js';
import type {
  AutocompleteInteraction,
  ChatInputInteraction,
  ComponentInteraction,
  InteractionResponder,
  MessageCommandInteraction,
} from '../../src/interaction/routed-interaction.js';
import { createRouter } from '../../src/interaction/router.js';
import { UpstreamError } from '../../src/interaction/upstream-error.js';
import { en } from '../../src/i18n/en.js';
import { fr } from '../../src/i18n/fr.js';
import { createMetrics } from '../../src/runtime/metrics.js';

/**
 * The router alone, over commands made for the test and a responder that records what it is asked:
 * which handler an interaction reaches, what it is given, and how answers and failures go back.
 */

/** The services the kernel hands every handler: of the app's type, which the kernel never looks into. */
interface TestServices {
  logger: pino.Logger;
  metrics: ReturnType<typeof createMetrics>;
  greeting: string;
}

const metrics = createMetrics();

function services(): TestServices {
  return { logger: pino({ level: 'silent' }), metrics, greeting: 'hello' };
}

type Call = [method: string, ...args: unknown[]];

function recordingResponder(): InteractionResponder & { calls: Call[] } {
  const calls: Call[] = [];
  const responder = {
    calls,
    deferred: false,
    replied: false,
    async reply(reply: Reply) {
      calls.push(['reply', reply]);
      responder.replied = true;
    },
    async deferReply(options: { ephemeral: boolean }) {
      calls.push(['deferReply', options]);
      responder.deferred = true;
    },
    async deferUpdate() {
      calls.push(['deferUpdate']);
      responder.deferred = true;
    },
    async update(payload: unknown) {
      calls.push(['update', payload]);
      responder.replied = true;
    },
    async respond(choices: AutocompleteChoice[]) {
      calls.push(['respond', choices]);
    },
    async editReply(edit: unknown) {
      calls.push(['editReply', edit]);
    },
    async deleteReply() {
      calls.push(['deleteReply']);
    },
    async followUp(reply: Reply) {
      calls.push(['followUp', reply]);
      return { id: 'follow-up-1' };
    },
    async editFollowUp(messageId: string, edit: unknown) {
      calls.push(['editFollowUp', messageId, edit]);
    },
  };
  return responder;
}

function options(values: Record<string, string> = {}, subcommand: string | null = null): OptionValues {
  return { subcommand, getString: (name) => values[name] ?? null, getBoolean: () => null, getInteger: () => null, getAttachment: () => null, getChannel: () => null };
}

const base = {
  user: { id: 'u1', username: 'member', locale: 'en-US' },
  channel: { id: 'c1', kind: 'guild' as const, ageRestricted: false },
  installation: SERVER_INSTALLATION,
  appPermissions: ALL_APP_PERMISSIONS,
  memberPermissions: { manageServer: false },
};

function chat(commandName: string, values: Record<string, string> = {}, locale = 'en-US'): ChatInputInteraction {
  return { ...base, user: { ...base.user, locale }, id: 'i-chat', kind: 'chat', commandName, options: options(values), responder: recordingResponder() };
}

function component(customId: string, values: string[] = []): ComponentInteraction {
  return {
    ...base,
    id: 'i-component',
    kind: 'component',
    customId,
    values,
    message: { id: 'm1', createdTimestamp: 0, ownerId: 'u1', rootId: 'i-root' },
    responder: recordingResponder(),
  };
}

function autocomplete(commandName: string, focused: { name: string; value: string } | null): AutocompleteInteraction {
  return { ...base, id: 'i-auto', kind: 'autocomplete', commandName, options: options({}, 'show'), focused, responder: recordingResponder() };
}

function messageMenu(commandName: string, content: string): MessageCommandInteraction {
  return { ...base, id: 'i-menu', kind: 'message', commandName, targetMessage: { id: 'm2', content, attachments: [] }, responder: recordingResponder() };
}

function calls(interaction: { responder: InteractionResponder }): Call[] {
  return (interaction.responder as ReturnType<typeof recordingResponder>).calls;
}

function greet(overrides: Partial<ChatInputCommand<TestServices>> = {}): ChatInputCommand<TestServices> {
  return {
    kind: 'chat',
    data: { name: 'greet', description: 'Greets' },
    execute: async (ctx, app) => ({ content: `${app.greeting}, ${ctx.options.getString('name') ?? ctx.user.username}` }),
    ...overrides,
  };
}

const echoMenu: MessageContextCommand<TestServices> = {
  kind: 'message',
  data: { name: 'Echo', type: 3 },
  execute: async (ctx) => ({ content: `echo: ${ctx.targetMessage.content}`, ephemeral: true }),
};

async function outcomes(command: string, kind: string): Promise<Record<string, number>> {
  const counted = (await metrics.interactions.get()).values.filter((value) => value.labels.command === command && value.labels.kind === kind);
  return Object.fromEntries(counted.map((value) => [String(value.labels.outcome), value.value]));
}

describe('createRouter: slash commands and message menus', () => {
  it('hands a slash command its options, its user and the very services object, and sends its reply', async () => {
    const app = services();
    const seen: unknown[] = [];
    const router = createRouter<TestServices>([greet({ execute: async (ctx, given) => (seen.push(given), { content: `${given.greeting}, ${ctx.options.getString('name')}` }) })], app);
    const interaction = chat('greet', { name: 'Yugi' });
    await router.handle(interaction);
    expect(seen).toEqual([app]);
    expect(seen[0]).toBe(app);
    expect(calls(interaction)).toEqual([['reply', { content: 'hello, Yugi' }]]);
  });

  it('routes a message menu by its name, with the message it was used on', async () => {
    const router = createRouter<TestServices>([greet(), echoMenu], services());
    const interaction = messageMenu('Echo', 'look at 8.8.8.8');
    await router.handle(interaction);
    expect(calls(interaction)).toEqual([['reply', { content: 'echo: look at 8.8.8.8', ephemeral: true }]]);
  });

  it('answers a command it does not know privately, in the user’s language', async () => {
    const router = createRouter<TestServices>([greet()], services());
    const interaction = chat('gone', {}, 'fr');
    await router.handle(interaction);
    expect(calls(interaction)).toEqual([['reply', { content: fr.errors.commandGone, ephemeral: true }]]);
  });

  it('answers a refusal with its own sentence, privately, and counts it as the user’s error', async () => {
    const refusing = greet({ data: { name: 'refuse', description: 'Refuses' }, execute: async () => { throw new UserError((t) => t.errors.buttonsExpired); } });
    const router = createRouter<TestServices>([refusing], services());
    const before = (await outcomes('refuse', 'chat')).user_error ?? 0;
    const interaction = chat('refuse', {}, 'fr');
    await router.handle(interaction);
    expect(calls(interaction)).toEqual([['reply', { content: fr.errors.buttonsExpired, ephemeral: true }]]);
    expect((await outcomes('refuse', 'chat')).user_error).toBe(before + 1);
  });

  it('answers an upstream failure with its sentence and a crash with the generic one, never the error’s text', async () => {
    const failing = (error: Error) => greet({ data: { name: 'fail', description: 'Fails' }, execute: async () => { throw error; } });
    const upstream = chat('fail');
    await createRouter<TestServices>([failing(new UpstreamError('geojs', 'unavailable', 'geojs answered 503'))], services()).handle(upstream);
    expect(calls(upstream)).toEqual([['reply', { content: en.errors.unavailable('GeoJS'), ephemeral: true }]]);
    const crash = chat('fail');
    const before = (await outcomes('fail', 'chat')).error ?? 0;
    await createRouter<TestServices>([failing(new Error('secret internals'))], services()).handle(crash);
    expect(calls(crash)).toEqual([['reply', { content: en.errors.generic, ephemeral: true }]]);
    expect((await outcomes('fail', 'chat')).error).toBe(before + 1);
  });

  it('after a public deferral, deletes the placeholder and tells the failure privately', async () => {
    const deferring = greet({
      execute: async (ctx) => {
        await ctx.defer({ ephemeral: false });
        throw new UserError('Nothing found.');
      },
    });
    const interaction = chat('greet');
    await createRouter<TestServices>([deferring], services()).handle(interaction);
    expect(calls(interaction)).toEqual([['deferReply', { ephemeral: false }], ['deleteReply'], ['followUp', { content: 'Nothing found.', ephemeral: true }]]);
  });

  it('edits a deferred reply into the answer, completed in full', async () => {
    const deferring = greet({
      execute: async (ctx) => {
        await ctx.defer({ ephemeral: true });
        return { content: 'late', ephemeral: true };
      },
    });
    const interaction = chat('greet');
    await createRouter<TestServices>([deferring], services()).handle(interaction);
    expect(calls(interaction)).toEqual([['deferReply', { ephemeral: true }], ['editReply', { content: 'late', embeds: [], components: [], files: [] }]]);
  });

  it('takes no new work once draining, and says so', async () => {
    const execute = vi.fn(async () => ({ content: 'ran' }));
    const router = createRouter<TestServices>([greet({ execute })], services());
    expect(await router.drain(100)).toEqual({ unfinished: 0 });
    const interaction = chat('greet');
    await router.handle(interaction);
    expect(execute).not.toHaveBeenCalled();
    expect(calls(interaction)).toEqual([['reply', { content: en.errors.shuttingDown, ephemeral: true }]]);
  });
});

describe('createRouter: components', () => {
  const pager = greet({
    data: { name: 'pager', description: 'Pages' },
    componentPrefix: 'pg',
    handleComponent: async (ctx, app) =>
      ctx.customId === 'pg:new' ? { reply: { content: `new for ${ctx.values.join(',')}`, ephemeral: true } } : { update: { content: `${app.greeting} page ${ctx.customId.split(':')[1]}` } },
  });

  it('hands a component to the command owning its custom_id’s prefix, and updates the message it sits on', async () => {
    const interaction = component('pg:2');
    await createRouter<TestServices>([greet(), pager], services()).handle(interaction);
    expect(calls(interaction)).toEqual([['update', { content: 'hello page 2' }]]);
  });

  it('sends a component’s new message as a reply, with the values picked', async () => {
    const interaction = component('pg:new', ['a', 'b']);
    await createRouter<TestServices>([pager], services()).handle(interaction);
    expect(calls(interaction)).toEqual([['reply', { content: 'new for a,b', ephemeral: true }]]);
  });

  it('answers a custom_id nobody owns (an old or forged button) with "expired", privately', async () => {
    for (const customId of ['zz:1', 'pg', 'greet:1', '']) {
      const interaction = component(customId);
      await createRouter<TestServices>([greet(), pager], services()).handle(interaction);
      // `pg` alone is the prefix: the owner is asked and answers; the others reach no handler.
      if (customId === 'pg') expect(calls(interaction)[0]?.[0]).toBe('update');
      else expect(calls(interaction), customId).toEqual([['reply', { content: en.errors.buttonsExpired, ephemeral: true }]]);
    }
  });

  it('answers a failing component on the side after a deferred update, leaving the message as it was', async () => {
    const failing = greet({
      componentPrefix: 'f',
      handleComponent: async (ctx) => {
        await ctx.deferUpdate();
        throw new UserError('That set is gone.');
      },
    });
    const interaction = component('f:1');
    await createRouter<TestServices>([failing], services()).handle(interaction);
    expect(calls(interaction)).toEqual([['deferUpdate'], ['followUp', { content: 'That set is gone.', ephemeral: true }]]);
  });
});

describe('createRouter: autocomplete', () => {
  const suggesting = (choices: () => Promise<AutocompleteChoice[]>): Command<TestServices> =>
    greet({ autocomplete: async (ctx, app) => (ctx.focused.name === 'name' ? choices() : [{ name: app.greeting, value: ctx.focused.value }]) });

  it('answers with the command’s suggestions for the focused option, at most 25', async () => {
    const many = Array.from({ length: 30 }, (_, index) => ({ name: `Card ${index}`, value: String(index) }));
    const interaction = autocomplete('greet', { name: 'name', value: 'ca' });
    await createRouter<TestServices>([suggesting(async () => many)], services()).handle(interaction);
    expect(calls(interaction)).toEqual([['respond', many.slice(0, 25)]]);
    const other = autocomplete('greet', { name: 'other', value: 'x' });
    await createRouter<TestServices>([suggesting(async () => many)], services()).handle(other);
    expect(calls(other)).toEqual([['respond', [{ name: 'hello', value: 'x' }]]]);
  });

  it('still answers, with no suggestions, when suggesting fails, nothing is focused or the command is unknown', async () => {
    const failing = autocomplete('greet', { name: 'name', value: 'x' });
    await createRouter<TestServices>([suggesting(async () => Promise.reject(new Error('index rebuilding')))], services()).handle(failing);
    expect(calls(failing)).toEqual([['respond', []]]);
    const unfocused = autocomplete('greet', null);
    await createRouter<TestServices>([suggesting(async () => [{ name: 'a', value: 'a' }])], services()).handle(unfocused);
    expect(calls(unfocused)).toEqual([['respond', []]]);
    const unknown = autocomplete('nothing', { name: 'name', value: 'x' });
    await createRouter<TestServices>([suggesting(async () => [{ name: 'a', value: 'a' }])], services()).handle(unknown);
    expect(calls(unknown)).toEqual([['respond', []]]);
  });
});
