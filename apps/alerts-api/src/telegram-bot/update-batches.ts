import type { TelegramUpdate } from './telegram-bot.client';

/** Updates of one chat handled per getUpdates batch; a chat that sends more at once is flooding. */
export const CHAT_BURST = 3;

/** One chat's part of a batch: the updates handled (in order) and how many more it sent and were left out. */
export interface ChatTurn {
  chatId: string | undefined;
  handle: TelegramUpdate[];
  ignored: number;
}

/** The chat an update comes from (the chat of the message, or of the message under a pressed button). */
export function chatOf(update: TelegramUpdate): string | undefined {
  const chat = update.message?.chat ?? update.callback_query?.message?.chat;
  return chat ? String(chat.id) : undefined;
}

/**
 * Splits a batch by chat, so chats are answered side by side and a chat waiting for its rate limit delays no other;
 * each chat has its first CHAT_BURST updates handled and the rest counted as ignored.
 */
export function turnsOf(batch: readonly TelegramUpdate[], burst = CHAT_BURST): ChatTurn[] {
  const turns = new Map<string, ChatTurn>();
  for (const update of batch) {
    const chatId = chatOf(update);
    const key = chatId ?? `update:${update.update_id}`;
    const turn = turns.get(key) ?? { chatId, handle: [], ignored: 0 };
    if (turn.handle.length < burst) turn.handle.push(update);
    else turn.ignored += 1;
    turns.set(key, turn);
  }
  return [...turns.values()];
}
