import { ButtonStyle, ComponentType, MessageFlags } from 'discord.js';

/**
 * What Discord refuses in a message's components (discord-api-docs, components/reference.mdx and
 * resources/message.mdx; ../shared/upstreams.md § 7), checked by the fake on every write so that a
 * payload Discord would answer with 400 fails the test:
 *
 * - without `IS_COMPONENTS_V2`: only action rows at the top, at most 5, each of at most 5 buttons
 *   or a single select;
 * - with it: no `content` and no `embeds`; top-level components among action row, section, text
 *   display, thumbnail, media gallery, file, separator and container (a container holds the same
 *   but containers); a media gallery of 1–10 items, each with a `media.url`; at most 40
 *   components in all, nested ones and a row's buttons counted;
 * - everywhere: `custom_id` 1–100 characters and unique in the message, a link button with a `url`
 *   and no `custom_id`, a select of 1–25 options.
 */

export const MAX_COMPONENTS_V2 = 40;
const LEGACY_MAX_ROWS = 5;
const ROW_MAX_BUTTONS = 5;
const CUSTOM_ID_MAX = 100;
const GALLERY_MAX_ITEMS = 10;
const SELECT_MAX_OPTIONS = 25;

const SELECTS: readonly number[] = [ComponentType.StringSelect, ComponentType.UserSelect, ComponentType.RoleSelect, ComponentType.MentionableSelect, ComponentType.ChannelSelect];
const V2_TOP_LEVEL: readonly number[] = [
  ComponentType.ActionRow,
  ComponentType.Section,
  ComponentType.TextDisplay,
  ComponentType.Thumbnail,
  ComponentType.MediaGallery,
  ComponentType.File,
  ComponentType.Separator,
  ComponentType.Container,
];
const IN_CONTAINER = V2_TOP_LEVEL.filter((type) => type !== ComponentType.Container && type !== ComponentType.Thumbnail);

type Node = Record<string, unknown>;

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

class Checker {
  count = 0;
  readonly ids = new Set<string>();

  component(node: unknown, allowed: readonly number[], where: string): string | undefined {
    if (!isNode(node) || typeof node.type !== 'number') return `${where}: not a component`;
    if (!allowed.includes(node.type)) return `${where}: component type ${node.type} not allowed here`;
    this.count++;
    if ('custom_id' in node) {
      const id = node.custom_id;
      if (typeof id !== 'string' || id.length < 1 || id.length > CUSTOM_ID_MAX) return `${where}: custom_id of ${String(id).length} characters`;
      if (this.ids.has(id)) return `${where}: custom_id ${id} used twice`;
      this.ids.add(id);
    }
    switch (node.type) {
      case ComponentType.ActionRow:
        return this.row(node, where);
      case ComponentType.Button:
        return this.button(node, where);
      case ComponentType.StringSelect: {
        const options = node.options;
        if (!Array.isArray(options) || options.length < 1 || options.length > SELECT_MAX_OPTIONS) return `${where}: a select needs 1–${SELECT_MAX_OPTIONS} options`;
        return typeof node.custom_id === 'string' ? undefined : `${where}: a select without custom_id`;
      }
      case ComponentType.MediaGallery: {
        const items = node.items;
        if (!Array.isArray(items) || items.length < 1 || items.length > GALLERY_MAX_ITEMS) return `${where}: a media gallery needs 1–${GALLERY_MAX_ITEMS} items, not ${Array.isArray(items) ? items.length : 'none'}`;
        const bad = items.findIndex((item) => !isNode(item) || !isNode(item.media) || typeof item.media.url !== 'string');
        return bad === -1 ? undefined : `${where}: media gallery item ${bad} has no media.url`;
      }
      case ComponentType.TextDisplay:
        return typeof node.content === 'string' && node.content.length > 0 ? undefined : `${where}: a text display without content`;
      case ComponentType.Container:
        return this.children(node, IN_CONTAINER, where, 1);
      case ComponentType.Section: {
        const texts = this.children(node, [ComponentType.TextDisplay], where, 1);
        return texts ?? this.component(node.accessory, [ComponentType.Button, ComponentType.Thumbnail], `${where}.accessory`);
      }
      default:
        return undefined;
    }
  }

  private children(node: Node, allowed: readonly number[], where: string, min: number): string | undefined {
    const children = node.components;
    if (!Array.isArray(children) || children.length < min) return `${where}: needs components`;
    for (const [index, child] of children.entries()) {
      const error = this.component(child, allowed, `${where}.components[${index}]`);
      if (error) return error;
    }
    return undefined;
  }

  private row(node: Node, where: string): string | undefined {
    const children = Array.isArray(node.components) ? (node.components as unknown[]) : [];
    const selects = children.filter((child) => isNode(child) && SELECTS.includes(child.type as number)).length;
    if (children.length === 0) return `${where}: an empty action row`;
    if (selects > 0 && children.length > 1) return `${where}: a select shares its row`;
    if (children.length > ROW_MAX_BUTTONS) return `${where}: ${children.length} buttons in a row`;
    return this.children(node, [ComponentType.Button, ...SELECTS], where, 1);
  }

  private button(node: Node, where: string): string | undefined {
    if (node.style === ButtonStyle.Link) return typeof node.url === 'string' && !('custom_id' in node) ? undefined : `${where}: a link button needs a url and no custom_id`;
    if (node.style === ButtonStyle.Premium) return undefined;
    return typeof node.custom_id === 'string' ? undefined : `${where}: a button without custom_id`;
  }
}

/**
 * Why Discord would refuse these message fields (undefined when it would not). `flags` is the
 * message's once written: an edit's own, else the message's.
 */
export function componentPayloadError(body: { content?: unknown; embeds?: unknown; components?: unknown }, flags: number): string | undefined {
  const v2 = (flags & MessageFlags.IsComponentsV2) !== 0;
  // Strict: even an empty content or embeds field is left out of such a message.
  if (v2 && (body.content != null || body.embeds != null)) return 'content or embeds beside IS_COMPONENTS_V2';
  if (body.components == null) return undefined;
  if (!Array.isArray(body.components)) return 'components is not a list';
  const checker = new Checker();
  if (!v2 && body.components.length > LEGACY_MAX_ROWS) return `${body.components.length} action rows`;
  for (const [index, component] of body.components.entries()) {
    const error = checker.component(component, v2 ? V2_TOP_LEVEL : [ComponentType.ActionRow], `components[${index}]`);
    if (error) return error;
  }
  if (v2 && checker.count > MAX_COMPONENTS_V2) return `${checker.count} components, over ${MAX_COMPONENTS_V2}`;
  return undefined;
}
