import { describe, expect, it } from 'vitest';
import { timingAcknowledgement } from '../../src/interaction/acknowledgement.js';
import type { InteractionResponder, RoutedInteraction } from '../../src/interaction/routed-interaction.js';

/** A responder that records the calls it gets, in order. */
function recordingResponder(calls: string[]): InteractionResponder {
  const record = (name: string) => async () => void calls.push(name);
  return {
    deferred: false,
    replied: false,
    reply: record('reply'),
    deferReply: record('deferReply'),
    deferUpdate: record('deferUpdate'),
    update: record('update'),
    respond: record('respond'),
    editReply: record('editReply'),
    deleteReply: record('deleteReply'),
    followUp: async () => {
      calls.push('followUp');
      return { id: '1' };
    },
    editFollowUp: record('editFollowUp'),
  };
}

function timed(observed: number[], calls: string[]): RoutedInteraction {
  const interaction = { kind: 'chat', id: '1', commandName: 'card', responder: recordingResponder(calls) } as unknown as RoutedInteraction;
  return timingAcknowledgement(interaction, performance.now(), (seconds) => observed.push(seconds));
}

describe('timingAcknowledgement', () => {
  it.each(['reply', 'deferReply', 'deferUpdate', 'update', 'respond'] as const)('observes the acknowledgement once, when %s reached Discord', async (first) => {
    const observed: number[] = [];
    const calls: string[] = [];
    const { responder } = timed(observed, calls);
    await (responder[first] as (argument?: unknown) => Promise<void>)({ ephemeral: true });
    expect(observed).toHaveLength(1);
    expect(observed[0]).toBeGreaterThanOrEqual(0);
    await responder.editReply({ content: 'done' });
    await responder.followUp({ content: 'more' });
    await responder.reply({ content: 'again' });
    expect(observed).toHaveLength(1);
    expect(calls).toEqual([first, 'editReply', 'followUp', 'reply']);
  });

  it('observes nothing when the acknowledgement fails', async () => {
    const observed: number[] = [];
    const interaction = { kind: 'chat', id: '1', commandName: 'card', responder: { ...recordingResponder([]), reply: () => Promise.reject(new Error('gone')) } };
    const broken = timingAcknowledgement(interaction as unknown as RoutedInteraction, performance.now(), (seconds) => observed.push(seconds));
    await expect(broken.responder.reply({ content: 'x' })).rejects.toThrow('gone');
    expect(observed).toEqual([]);
  });
});
