import { Inject, Injectable } from '@nestjs/common';
import {
  addTelegramChannel,
  AlertsAccountEntity,
  bindTelegramChat,
  ChannelEntity,
  lockAlertsAccount,
  lockTelegramChat,
  TelegramChatEntity,
} from '@paper/alerts-data';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { createAccountToken } from '../accounts/account-token';
import { hasChannelRoom } from '../channels/channel-limit';

/** The alerts account a Telegram chat's commands act on, and who may change it. */
export interface TelegramChatAccount {
  accountId: string;
  ownerUserId: string;
  /** The chat's telegram channel in that account, if it still exists (it can be deleted through the API). */
  channelId: string | null;
  channelStatus: ChannelEntity['status'] | null;
  /** When the channel last changed (its status included): with `paused`, since when it is paused. */
  channelUpdatedAt: Date | null;
}

export interface TelegramChatRef {
  chatId: string;
  userId: string;
  /** Channel label, e.g. `Telegram @ann` or the group title. */
  label: string;
}

/**
 * Chats bound to alerts accounts by the bot. `/start` in a new chat creates an account with the chat as
 * its first channel and the sender as the owner, in one transaction under a per-chat lock, so a repeated
 * or concurrent `/start` never makes a second account.
 */
@Injectable()
export class TelegramChatsService {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async find(chatId: string): Promise<TelegramChatAccount | undefined> {
    return this.read(this.dataSource.manager, chatId);
  }

  /**
   * The chat's account, created with its channel when the chat has none; a missing channel is added again (within the
   * channel limit).
   */
  async open(chat: TelegramChatRef): Promise<{ account: TelegramChatAccount; created: boolean }> {
    return this.dataSource.transaction(async (m) => {
      await lockTelegramChat(m, chat.chatId);
      const existing = await this.read(m, chat.chatId);
      if (existing) {
        if (existing.channelId) return { account: existing, created: false };
        await lockAlertsAccount(m, existing.accountId);
        if (await hasChannelRoom(m, existing.accountId)) await this.addChannel(m, existing.accountId, chat);
        return { account: (await this.read(m, chat.chatId))!, created: false };
      }
      const { accountId, tokenHash } = createAccountToken();
      await m.getRepository(AlertsAccountEntity).insert({ id: accountId, tokenHash });
      await this.addChannel(m, accountId, chat);
      await m.getRepository(TelegramChatEntity).insert({ chatId: chat.chatId, accountId, ownerUserId: chat.userId });
      return { account: (await this.read(m, chat.chatId))!, created: true };
    });
  }

  /**
   * Binds a chat linked with `/start <code>` to that account, also when the chat had an account of its own: the
   * chat's commands (/pause, /list, /unwatch, /history…) then act on the linked account, and the sender becomes its
   * owner in this chat.
   */
  async bind(manager: EntityManager, chatId: string, accountId: string, userId: string): Promise<void> {
    await lockTelegramChat(manager, chatId);
    await bindTelegramChat(manager, chatId, accountId, userId);
  }

  private async addChannel(m: EntityManager, accountId: string, chat: TelegramChatRef): Promise<void> {
    await addTelegramChannel(m, { id: randomUUID(), accountId, chatId: chat.chatId, label: chat.label.slice(0, 100) });
  }

  private async read(m: EntityManager, chatId: string): Promise<TelegramChatAccount | undefined> {
    const chat = await m.getRepository(TelegramChatEntity).findOneBy({ chatId });
    if (!chat) return undefined;
    const channel = await m
      .getRepository(ChannelEntity)
      .findOneBy({ accountId: chat.accountId, kind: 'telegram', target: chatId });
    return {
      accountId: chat.accountId,
      ownerUserId: chat.ownerUserId,
      channelId: channel?.id ?? null,
      channelStatus: channel?.status ?? null,
      channelUpdatedAt: channel?.updatedAt ?? null,
    };
  }
}
