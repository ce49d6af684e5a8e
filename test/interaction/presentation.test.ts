import { describe, expect, it, vi } from 'vitest';
import { fr } from '../../src/i18n/fr.js';
import { en } from '../../src/i18n/en.js';
import { presentationFor, privateAnswer, turnedPage, updateDeferral } from '../../src/interaction/presentation.js';

const user = { id: '42', username: 'owner', locale: 'fr' };

describe('presentation helpers', () => {
  it('answer in the language option’s words when given, else the place’s public language, and say whether files may be attached', () => {
    const settings = { publicLocale: 'fr', ipAnswers: null };
    expect(presentationFor({ settings, appPermissions: { attachFiles: false } })).toEqual({ messages: fr, attachFiles: false });
    expect(presentationFor({ settings, appPermissions: { attachFiles: true } }, 'en')).toEqual({ messages: en, attachFiles: true });
  });

  it('turn a page in place for whoever ran the command, and show it privately to anyone else', () => {
    const page = { content: 'page 2' };
    expect(turnedPage({ user, message: { id: 'm', createdTimestamp: 0, ownerId: '42' } }, page)).toEqual({ update: page });
    expect(turnedPage({ user, message: { id: 'm', createdTimestamp: 0, ownerId: '7' } }, page)).toEqual({ reply: { content: 'page 2', ephemeral: true } });
    expect(turnedPage({ user, message: { id: 'm', createdTimestamp: 0, ownerId: null } }, page)).toEqual({ reply: { content: 'page 2', ephemeral: true } });
  });

  it('answer a press privately, and defer a component’s slow work as an update of its message', async () => {
    expect(privateAnswer('No.')).toEqual({ reply: { content: 'No.', ephemeral: true } });
    const deferUpdate = vi.fn(async () => undefined);
    await updateDeferral({ deferUpdate }).defer();
    expect(deferUpdate).toHaveBeenCalledOnce();
  });
});
