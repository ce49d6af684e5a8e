import type { ChannelInfo, Invoker, PlaceSettings } from '../interaction/context.js';
import type { SettingsService } from '../services/settings/settings-service.js';

/**
 * The router's view of `/settings` (its `settleInteraction`): the member's own language becomes
 * the locale of their private answers, the place's public language and `/ip` default go in
 * `settings`, the purity ceiling in the channel that `/wallpaper`'s gating reads.
 */
export function settleWith(settings: SettingsService) {
  return async ({ user, channel }: { user: Invoker; channel: ChannelInfo }): Promise<{ user: Invoker; channel: ChannelInfo; settings: PlaceSettings }> => {
    const effective = await settings.at({
      guildId: channel.guildId ?? null,
      channelId: channel.id,
      ...(channel.parentId === undefined ? {} : { parentId: channel.parentId }),
      userId: user.id,
    });
    const ceiling = effective.purityCeiling.value;
    return {
      user: effective.ownLanguage.value === null ? user : { ...user, locale: effective.ownLanguage.value },
      channel: ceiling === null ? channel : { ...channel, purityCeiling: ceiling },
      settings: { publicLocale: effective.publicLanguage.value ?? user.locale, ipAnswers: effective.ipAnswers.value },
    };
  };
}
