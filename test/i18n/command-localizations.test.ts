import { ApplicationCommandType } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.js';
import { COMMAND_LOCALIZATIONS } from '../../src/i18n/command-localizations.js';
import { COMMAND_LOCALES } from '../../src/i18n/shared-localizations.js';
import { registrationBody } from '../../src/interaction/registration-body.js';

/** Discord's rule for chat-input command and option names (application-commands.mdx). */
const CHAT_INPUT_NAME = /^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;

interface Node {
  name: string;
  description?: string;
  type?: number;
  name_localizations?: Record<string, string> | null;
  description_localizations?: Record<string, string> | null;
  options?: Node[];
  choices?: { name: string; value: string | number; name_localizations?: Record<string, string> | null }[];
}

const body = registrationBody(commands) as Node[];

/** Every localizable thing in the registration body, with its English path and siblings. */
function* nodesOf(node: Node, path: string, chatInput: boolean): Generator<{ path: string; node: Node; chatInput: boolean; siblings: Node[] }> {
  for (const option of node.options ?? []) {
    yield { path: `${path} ${option.name}`, node: option, chatInput, siblings: node.options! };
    yield* nodesOf(option, `${path} ${option.name}`, chatInput);
  }
}

const everything = body.flatMap((command) => {
  const chatInput = command.type === undefined || command.type === ApplicationCommandType.ChatInput;
  return [{ path: command.name, node: command, chatInput, siblings: body }, ...nodesOf(command, command.name, chatInput)];
});

describe('command localizations', () => {
  it.each(COMMAND_LOCALES)('%s: every command, option and choice is named within Discord rules', (locale) => {
    for (const { path, node, chatInput, siblings } of everything) {
      const name = node.name_localizations?.[locale];
      expect(name, `${path} name in ${locale}`).toBeDefined();
      if (chatInput) {
        expect(name, path).toMatch(CHAT_INPUT_NAME);
        expect(name, path).toBe(name!.toLowerCase());
      } else {
        expect(name!.length, path).toBeGreaterThanOrEqual(1);
        expect(name!.length, path).toBeLessThanOrEqual(32);
      }
      // Siblings must stay distinct in every language, or Discord rejects the whole PUT.
      const siblingNames = siblings.map((sibling) => sibling.name_localizations?.[locale] ?? sibling.name);
      expect(new Set(siblingNames).size, `${path} siblings in ${locale}`).toBe(siblingNames.length);
      if (node.description !== undefined && node.description !== '') {
        const description = node.description_localizations?.[locale];
        expect(description, `${path} description in ${locale}`).toBeDefined();
        expect(description!.length, path).toBeGreaterThanOrEqual(1);
        expect(description!.length, path).toBeLessThanOrEqual(100);
      }
      for (const choice of node.choices ?? []) {
        const choiceName = choice.name_localizations?.[locale];
        expect(choiceName, `${path}=${choice.value} in ${locale}`).toBeDefined();
        expect(choiceName!.length, `${path}=${choice.value}`).toBeGreaterThanOrEqual(1);
        expect(choiceName!.length, `${path}=${choice.value}`).toBeLessThanOrEqual(100);
      }
    }
  });

  it('has no translation for a path that does not exist (renamed options are not left behind)', () => {
    const paths = new Set(everything.flatMap(({ path, node }) => [path, ...(node.choices ?? []).map((choice) => `${path}=${choice.value}`)]));
    expect(Object.keys(COMMAND_LOCALIZATIONS).filter((path) => !paths.has(path))).toEqual([]);
  });

  it('publishes /card, /ip, /wallpaper, /deck, Locate IP and Read deck for user install everywhere, /status for servers only', () => {
    const scopes = Object.fromEntries(body.map((command) => [command.name, command as unknown as { integration_types: number[]; contexts: number[] }]));
    for (const name of ['card', 'ip', 'wallpaper', 'Locate IP addresses', 'deck', 'Read deck']) {
      expect(scopes[name]!.integration_types, name).toEqual([0, 1]);
      expect(scopes[name]!.contexts, name).toEqual([0, 1, 2]);
    }
    expect(scopes.status!.integration_types).toEqual([0]);
    expect(scopes.status!.contexts).toEqual([0]);
  });
});
