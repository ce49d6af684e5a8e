import type { LocalizationMap } from 'discord.js';
import { COMMAND_LOCALIZATIONS } from './command-localizations.js';
import { COMMAND_LOCALES } from './shared-localizations.js';

/** The parts of a command's JSON that carry names: the command, its options and their choices. */
interface NamedNode {
  name: string;
  description?: string;
  name_localizations?: LocalizationMap | null;
  description_localizations?: LocalizationMap | null;
  options?: readonly NamedNode[];
  choices?: readonly { name: string; value: string | number; name_localizations?: LocalizationMap | null }[];
}

function localizationsAt(path: string, part: 0 | 1): LocalizationMap | undefined {
  const entry = COMMAND_LOCALIZATIONS[path];
  if (entry === undefined) return undefined;
  const map: LocalizationMap = {};
  for (const locale of COMMAND_LOCALES) {
    const text = entry[locale][part];
    if (text !== undefined) map[locale] = text;
  }
  return Object.keys(map).length > 0 ? map : undefined;
}

function localizeNode<T extends NamedNode>(node: T, path: string): T {
  const names = localizationsAt(path, 0);
  const descriptions = node.description === undefined || node.description === '' ? undefined : localizationsAt(path, 1);
  return {
    ...node,
    ...(names === undefined ? {} : { name_localizations: names }),
    ...(descriptions === undefined ? {} : { description_localizations: descriptions }),
    ...(node.options === undefined ? {} : { options: node.options.map((option) => localizeNode(option, `${path} ${option.name}`)) }),
    ...(node.choices === undefined
      ? {}
      : {
          choices: node.choices.map((choice) => {
            const choiceNames = localizationsAt(`${path}=${choice.value}`, 0);
            return choiceNames === undefined ? choice : { ...choice, name_localizations: choiceNames };
          }),
        }),
  };
}

/**
 * A command's registration JSON with fr/de/it/pt-BR names and descriptions for the command, every
 * option and every choice (keyed by English path, see command-localizations.ts). A path without a
 * translation keeps only its English text; the localization test makes sure none is missing.
 */
export function localizeCommand<T extends NamedNode>(data: T): T {
  return localizeNode(data, data.name);
}
