import { ButtonStyle, ComponentType, type APIButtonComponentWithCustomId } from 'discord.js';
import { menuPages } from '../decks/card-menu-pages.js';
import { smallWorldBridges, type SmallWorldMonster, type SmallWorldProperty } from '../decks/small-world.js';
import { smallWorldButtonCustomId, smallWorldMenuCustomId, type SmallWorldChoices, type SmallWorldMenu } from '../decks/small-world-custom-ids.js';
import type { Catalogue } from '../i18n/catalogue.js';
import type { ActionRow, MessagePayload } from '../interaction/reply.js';
import { localizedAttribute, localizedTypeLine } from './card-terms.js';
import { EMBED_LIMITS, formatInteger, truncate } from './format.js';
import { pagedCardMenu } from './paged-card-menu.js';

/**
 * **Small World**: the Main Deck's monsters in two menus (the one revealed from the hand, the one
 * wanted from the Deck) and, once both are picked, every monster of the deck that bridges them with
 * what it shares with each. More than 25 monsters page the menus, as Opening odds' do.
 */
export interface SmallWorldView {
  /** The Main Deck's distinct monsters Small World can use, in deck order. */
  monsters: readonly SmallWorldMonster[];
  choices: SmallWorldChoices;
  /** Card names in the player's language, by passcode, where they differ from the English ones. */
  localNames: ReadonlyMap<number, string>;
  messages: Catalogue;
}

/** The button under a shown deck. */
export function smallWorldButton(key: string, t: Catalogue): APIButtonComponentWithCustomId {
  return { type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: smallWorldButtonCustomId(key), label: t.deck.smallWorld.button };
}

function nameOf(monster: SmallWorldMonster, view: SmallWorldView): string {
  return view.localNames.get(monster.card.id) ?? monster.card.name;
}

/** `Level 4`, `ATK 1800`, `Attribute DARK`, in the player's language. */
function propertyText(property: SmallWorldProperty, monster: SmallWorldMonster, t: Catalogue): string {
  const n = (value: number) => formatInteger(value, t.intlLocale);
  switch (property) {
    case 'race':
      return `${t.deck.smallWorld.type} ${localizedTypeLine(monster.race, t.cardTerms)}`;
    case 'attribute':
      return `${t.deck.smallWorld.attribute} ${localizedAttribute(monster.attribute, t.cardTerms)}`;
    case 'level':
      return `${t.card.level} ${n(monster.level)}`;
    case 'atk':
      return `${t.card.atk} ${n(monster.atk)}`;
    case 'def':
      return `${t.card.def} ${n(monster.def)}`;
  }
}

function answerText(view: SmallWorldView): string {
  const t = view.messages;
  const { hand, target } = view.choices;
  if (hand === null || target === null) return t.deck.smallWorld.pick;
  const [handMonster, targetMonster] = [view.monsters[hand]!, view.monsters[target]!];
  const bridges = smallWorldBridges(handMonster, targetMonster, view.monsters);
  const route = t.deck.smallWorld.route(nameOf(handMonster, view), nameOf(targetMonster, view));
  if (bridges.length === 0) return `${route}\n\n${t.deck.smallWorld.none}`;
  const lines = bridges.map(({ bridge, withHand, withTarget }) => `• ${t.deck.smallWorld.bridge(`**${nameOf(bridge, view)}**`, propertyText(withHand, bridge, t), propertyText(withTarget, bridge, t))}`);
  return [route, '', ...lines].join('\n');
}

function menuRow(menu: SmallWorldMenu, view: SmallWorldView): ActionRow {
  const t = view.messages;
  const { choices, monsters } = view;
  const page = Math.min(menu === 'hand' ? choices.handPage : choices.targetPage, menuPages(monsters.length) - 1);
  const chosen = choices[menu];
  return pagedCardMenu({
    customId: smallWorldMenuCustomId(menu, { ...choices, ...(menu === 'hand' ? { handPage: page } : { targetPage: page }) }),
    placeholder: menu === 'hand' ? t.deck.smallWorld.handMenu : t.deck.smallWorld.targetMenu,
    labels: monsters.map((monster) => nameOf(monster, view)),
    page,
    chosen: new Set(chosen === null ? [] : [chosen]),
    multiple: false,
    more: t.deck.odds.more,
    moreDescription: t.deck.odds.moreDescription,
    intlLocale: t.intlLocale,
  });
}

/** The Small World message: the route and its bridges (or what to pick), and the two menus. */
export function renderSmallWorld(view: SmallWorldView): MessagePayload {
  return {
    embeds: [{ title: view.messages.deck.smallWorld.title, description: truncate(answerText(view), EMBED_LIMITS.description) }],
    components: [menuRow('hand', view), menuRow('target', view)],
  };
}
