import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  AccountsService,
  AlertsException,
  AlertsService,
  ChannelsService,
  COOLDOWN_MAX_S,
  CreateWatchDto,
  MUTE_MAX_S,
  QUIET_MIN_S,
  type TelegramChatAccount,
  TelegramChatsService,
  UpdateWatchDto,
  validateDto,
  type WatchView,
  WatchesService,
} from '@paper/alerts-accounts';
import { APP_CONFIG } from '@paper/nest-infra';
import type { AlertsApiConfig } from '../config/alerts-api.config';
import { TelegramApiError, TelegramBotClient, type TelegramMessage, type TelegramUpdate } from './telegram-bot.client';
import { BOT_COMMANDS, type BotCommandSpec } from './bot-commands';
import { BotIdentity } from './bot-identity.service';
import { chatLabel } from './link-replies';
import { BOT_WATCH_RULES, REPLY } from './bot-replies';
import { esc, fitMessage, helpText, ruleSummary, utc, watchName } from './bot-text';
import { isForBot, type ParsedCommand, parseCommand } from './command-parser';
import { UpstreamClient } from '../upstream/upstream-client.service';
import { durationText, parseDuration } from './durations';
import { type PagedView, pageKeyboard, pageOf, parsePageButton } from './page-buttons';
import { POSITIONS_PAGE_WALLETS, positionsOf, walletBlock, type WalletPositions } from './positions-view';
import { parseRuleButton, patchOf, rulesKeyboard } from './rules-keyboard';
import type { InlineKeyboard } from './telegram-bot.client';

/** Watches per page of /list. */
export const LIST_PAGE_SIZE = 10;

/** The caller the bot's exchange reads are made for (it forwards no user's address). */
const BOT_CALLER = '127.0.0.1';

/** What the bot did with an update (tests and logs read it). */
export type BotOutcome =
  | 'started'
  | 'already_started'
  | 'watching'
  | 'already_watching'
  | 'unwatched'
  | 'listed'
  | 'positions'
  | 'paged'
  | 'rules_shown'
  | 'risk_set'
  | 'muted'
  | 'unmuted'
  | 'cooldown_set'
  | 'paused'
  | 'resumed'
  | 'history'
  | 'token_sent'
  | 'token_needs_private_chat'
  | 'help'
  | 'usage'
  | 'unknown_command'
  | 'no_account'
  | 'not_owner'
  | 'no_match'
  | 'ambiguous'
  | 'no_channel'
  | 'refused'
  | 'rule_switched'
  | 'stale_button'
  | 'ignored';

interface Context {
  chatId: string;
  userId: string;
  message: TelegramMessage;
  command: ParsedCommand;
  spec: BotCommandSpec;
}

const SPECS = new Map(BOT_COMMANDS.map((c) => [c.command, c]));

/**
 * The alerts bot: each command acts on the alerts account bound to the chat through the same services
 * alerts-api serves (validation, limits and messages are theirs). In a group, anyone may read and
 * only the member who set the account up may change it.
 */
@Injectable()
export class TelegramBot {
  private readonly logger = new Logger(TelegramBot.name);

  constructor(
    private readonly client: TelegramBotClient,
    private readonly identity: BotIdentity,
    private readonly accounts: AccountsService,
    private readonly watches: WatchesService,
    private readonly channels: ChannelsService,
    private readonly alerts: AlertsService,
    private readonly chats: TelegramChatsService,
    private readonly upstream: UpstreamClient,
    @Inject(APP_CONFIG) private readonly config: AlertsApiConfig,
  ) {}

  async onMessage(message: TelegramMessage): Promise<BotOutcome> {
    if (!message.text || !message.from || message.from.is_bot) return 'ignored';
    const chatId = String(message.chat.id);
    const privateChat = message.chat.type === 'private';
    const command = parseCommand(message.text);
    if (!command) return privateChat ? this.answer(chatId, helpText(), 'help') : 'ignored';
    if (!isForBot(command, this.identity.username)) return 'ignored';
    const spec = SPECS.get(command.name);
    if (!spec) return this.answer(chatId, REPLY.unknownCommand(command.name), 'unknown_command');
    const context: Context = { chatId, userId: String(message.from.id), message, command, spec };
    try {
      return await this.run(context);
    } catch (error) {
      if (error instanceof AlertsException) return this.answer(chatId, esc(error.message), 'refused');
      throw error;
    }
  }

  async onCallback(query: NonNullable<TelegramUpdate['callback_query']>): Promise<BotOutcome> {
    const paging = parsePageButton(query.data);
    if (paging && query.message) {
      const chatId = String(query.message.chat.id);
      const account = await this.chats.find(chatId);
      if (!account) return this.toast(query.id, REPLY.staleButton, 'stale_button');
      const view = await this.page(paging.view, account, paging.page);
      await this.send(() => this.client.editMessageText(chatId, query.message!.message_id, view.html, view.keyboard));
      return this.toast(query.id, '', 'paged');
    }
    const button = parseRuleButton(query.data);
    const message = query.message;
    const account = message && button ? await this.chats.find(String(message.chat.id)) : undefined;
    if (!message || !button || !account) return this.toast(query.id, REPLY.staleButton, 'stale_button');
    if (account.ownerUserId !== String(query.from.id)) return this.toast(query.id, REPLY.notOwner, 'not_owner', true);
    try {
      const current = await this.watches.get(account.accountId, button.watchId);
      const watch = await this.watches.update(account.accountId, current.id, { rules: patchOf(button, current.rules) });
      await this.send(() =>
        this.client.editMessageText(
          String(message.chat.id),
          message.message_id,
          REPLY.rules(watch),
          rulesKeyboard(watch.id, watch.rules),
        ),
      );
      return this.toast(query.id, `Saved: ${ruleSummary(watch.rules)}`, 'rule_switched');
    } catch (error) {
      if (error instanceof AlertsException) return this.toast(query.id, REPLY.staleButton, 'stale_button');
      throw error;
    }
  }

  private async run(c: Context): Promise<BotOutcome> {
    if (c.spec.command === 'help') return this.answer(c.chatId, helpText(), 'help');
    if (c.spec.command === 'start') return this.start(c);
    const account = await this.chats.find(c.chatId);
    if (!account) return this.answer(c.chatId, REPLY.noAccount, 'no_account');
    if (c.spec.access === 'owner' && account.ownerUserId !== c.userId)
      return this.answer(c.chatId, REPLY.notOwner, 'not_owner');
    switch (c.spec.command) {
      case 'watch':
        return this.watch(c, account);
      case 'unwatch':
        return this.withWatch(c, account, c.command.rest, async (w) => {
          await this.watches.remove(account.accountId, w.id);
          return this.answer(c.chatId, `Stopped watching ${watchName(w)}.`, 'unwatched');
        });
      case 'list':
      case 'positions': {
        const [page] = c.command.args;
        const view = await this.page(c.spec.command as PagedView, account, page ? Number(page) : 1);
        return this.answer(c.chatId, view.html, c.spec.command === 'list' ? 'listed' : 'positions', view.keyboard);
      }
      case 'rules':
        return this.withWatch(c, account, c.command.rest, (w) =>
          this.answer(c.chatId, REPLY.rules(w), 'rules_shown', rulesKeyboard(w.id, w.rules)),
        );
      case 'risk':
        return this.risk(c, account);
      case 'mute':
        return this.mute(c, account);
      case 'cooldown':
        return this.cooldown(c, account);
      case 'pause':
      case 'resume':
        return this.pauseOrResume(c, account);
      case 'history':
        return this.history(c, account);
      case 'token':
        return this.token(c, account);
      default:
        return this.answer(c.chatId, REPLY.unknownCommand(c.spec.command), 'unknown_command');
    }
  }

  private async start(c: Context): Promise<BotOutcome> {
    const { created } = await this.chats.open({ chatId: c.chatId, userId: c.userId, label: chatLabel(c.message.chat) });
    return created
      ? this.answer(c.chatId, `${REPLY.started}\n\n${helpText()}`, 'started')
      : this.answer(c.chatId, `${REPLY.alreadyStarted}\n\n${helpText()}`, 'already_started');
  }

  private async watch(c: Context, account: TelegramChatAccount): Promise<BotOutcome> {
    const [address] = c.command.args;
    if (!address) return this.answer(c.chatId, REPLY.usage('watch'), 'usage');
    const label = c.command.rest.slice(address.length).trim() || undefined;
    await validateDto(CreateWatchDto, { address, ...(label !== undefined ? { label } : {}) });
    const [existing] = await this.watches.match(account.accountId, address);
    if (existing) {
      const watch =
        label !== undefined ? await this.watches.update(account.accountId, existing.id, { label }) : existing;
      return this.answer(
        c.chatId,
        `Already watching ${watchName(watch)}.\nRules: ${ruleSummary(watch.rules)}.`,
        'already_watching',
      );
    }
    const { watch } = await this.watches.create(account.accountId, { address, label, rules: BOT_WATCH_RULES });
    return this.answer(
      c.chatId,
      `Watching ${watchName(watch)}.\nRules: ${ruleSummary(watch.rules)}.\nChange them with /rules ${esc(watch.label ?? watch.address)}`,
      'watching',
    );
  }

  private page(
    view: PagedView,
    account: TelegramChatAccount,
    page: number,
  ): Promise<{ html: string; keyboard?: InlineKeyboard }> {
    return view === 'list' ? this.listPage(account, page) : this.positionsPage(account, page);
  }

  /**
   * One page of /positions: the open positions of POSITIONS_PAGE_WALLETS watched wallets, read from the exchange's
   * public get_account, with buttons to the neighbouring pages.
   */
  private async positionsPage(
    account: TelegramChatAccount,
    requested: number,
  ): Promise<{ html: string; keyboard?: InlineKeyboard }> {
    const watches = await this.watches.list(account.accountId);
    if (watches.length === 0) return { html: REPLY.noWatches };
    const { page, pages, from } = pageOf(watches.length, POSITIONS_PAGE_WALLETS, requested);
    const wallets = await Promise.all(
      watches.slice(from, from + POSITIONS_PAGE_WALLETS).map(async (watch): Promise<WalletPositions> => ({
        watch,
        positions: await this.upstream
          .callTool('get_account', { wallet: watch.address }, BOT_CALLER)
          .then(positionsOf, () => undefined),
      })),
    );
    const header = `<b>Open positions</b>${pages > 1 ? ` · wallets ${from + 1}–${from + wallets.length} of ${watches.length}` : ''}`;
    return {
      html: fitMessage(header, wallets.map(walletBlock), (n) => `… and ${n} more wallets on the next page.`),
      keyboard: pageKeyboard('positions', page, pages),
    };
  }

  /** One page of /list (LIST_PAGE_SIZE watches), with buttons to the neighbouring pages. */
  private async listPage(
    account: TelegramChatAccount,
    requested: number,
  ): Promise<{ html: string; keyboard?: InlineKeyboard }> {
    const [watches, last, quiet] = await Promise.all([
      this.watches.list(account.accountId),
      this.alerts.lastByWatch(account.accountId),
      this.watches.quietTimes(account.accountId),
    ]);
    const paused =
      account.channelStatus && account.channelStatus !== 'active'
        ? `\n${REPLY.channelNotActive(account.channelStatus)}`
        : '';
    if (watches.length === 0) return { html: `${REPLY.noWatches}${paused}` };
    const { page, pages, from } = pageOf(watches.length, LIST_PAGE_SIZE, requested);
    const blocks = watches.slice(from, from + LIST_PAGE_SIZE).map((w) => {
      const q = quiet.get(w.id);
      const quietLine = [
        q?.mutedUntil ? `Muted until ${utc(q.mutedUntil)}` : '',
        q?.cooldownS ? `Cooldown ${durationText(q.cooldownS)}` : '',
      ]
        .filter(Boolean)
        .join(' · ');
      return [
        watchName(w),
        ruleSummary(w.rules),
        ...(quietLine ? [quietLine] : []),
        `Last alert: ${last.has(w.id) ? utc(last.get(w.id)!) : 'none yet'}`,
      ].join('\n');
    });
    const header =
      `<b>Watches</b> (${watches.length} of ${this.config.ALERTS_MAX_WATCHES})` +
      `${pages > 1 ? ` · page ${page} of ${pages}` : ''}${paused}`;
    return {
      html: fitMessage(header, blocks, (n) => `… and ${n} more of this page, too long to show.`),
      keyboard: pageKeyboard('list', page, pages),
    };
  }

  /** A watch reference followed by one last argument (`/risk desk 5`, `/mute main desk 2h`). */
  private refAndLast(c: Context): { ref: string; raw: string } | undefined {
    if (c.command.args.length < 2) return undefined;
    const raw = c.command.args.at(-1)!;
    return { ref: c.command.rest.slice(0, c.command.rest.length - raw.length).trim(), raw };
  }

  private async mute(c: Context, account: TelegramChatAccount): Promise<BotOutcome> {
    const parts = this.refAndLast(c);
    if (!parts) return this.answer(c.chatId, REPLY.usage('mute'), 'usage');
    const off = parts.raw.toLowerCase() === 'off';
    const seconds = off ? 0 : parseDuration(parts.raw);
    if (seconds === undefined || seconds > MUTE_MAX_S || (!off && seconds < QUIET_MIN_S))
      return this.answer(c.chatId, REPLY.notADuration(durationText(MUTE_MAX_S)), 'refused');
    return this.withWatch(c, account, parts.ref, async (w) => {
      if (off) {
        await this.watches.mute(account.accountId, w.id, null);
        return this.answer(c.chatId, `Alerts of ${watchName(w)} are sent again.`, 'unmuted');
      }
      const until = new Date(Date.now() + seconds * 1000);
      await this.watches.mute(account.accountId, w.id, until);
      return this.answer(
        c.chatId,
        `Muted ${watchName(w)} until ${utc(until)} (${durationText(seconds)}). Its alerts are still recorded ` +
          `(/history); /mute ${esc(w.label ?? w.address)} off lifts it.`,
        'muted',
      );
    });
  }

  private async cooldown(c: Context, account: TelegramChatAccount): Promise<BotOutcome> {
    const parts = this.refAndLast(c);
    if (!parts) return this.answer(c.chatId, REPLY.usage('cooldown'), 'usage');
    const seconds = parts.raw.toLowerCase() === 'off' ? 0 : parseDuration(parts.raw);
    if (seconds === undefined || seconds > COOLDOWN_MAX_S || (seconds > 0 && seconds < QUIET_MIN_S))
      return this.answer(c.chatId, REPLY.notADuration(durationText(COOLDOWN_MAX_S)), 'refused');
    return this.withWatch(c, account, parts.ref, async (w) => {
      await this.watches.setCooldown(account.accountId, w.id, seconds);
      return this.answer(
        c.chatId,
        seconds === 0
          ? `No cooldown for ${watchName(w)}: each of its alerts is sent.`
          : `Cooldown of ${watchName(w)}: at most one alert per ${durationText(seconds)} in each chat or channel.`,
        'cooldown_set',
      );
    });
  }

  private async risk(c: Context, account: TelegramChatAccount): Promise<BotOutcome> {
    const parts = this.refAndLast(c);
    if (!parts) return this.answer(c.chatId, REPLY.usage('risk'), 'usage');
    const { raw, ref } = parts;
    if (!/^[+-]?(\d+\.?\d*|\.\d+)%?$/.test(raw)) return this.answer(c.chatId, REPLY.notAPercentage, 'refused');
    const belowPct = Number(raw.replace(/%$/, ''));
    const rules = { liquidation: { enabled: true, belowPct } };
    await validateDto(UpdateWatchDto, { rules });
    return this.withWatch(c, account, ref, async (w) => {
      const watch = await this.watches.update(account.accountId, w.id, { rules });
      return this.answer(
        c.chatId,
        `Liquidation risk of ${watchName(watch)} now alerts below ${watch.rules.liquidation.belowPct}%.`,
        'risk_set',
      );
    });
  }

  private async pauseOrResume(c: Context, account: TelegramChatAccount): Promise<BotOutcome> {
    if (!account.channelId) return this.answer(c.chatId, REPLY.noChannel, 'no_channel');
    const pause = c.spec.command === 'pause';
    await this.channels.setStatus(account.accountId, account.channelId, pause ? 'paused' : 'active');
    if (pause) return this.answer(c.chatId, REPLY.paused, 'paused');
    const since = account.channelStatus === 'paused' ? account.channelUpdatedAt : null;
    const held = since ? await this.alerts.heldBackWhilePaused(account.channelId, since) : [];
    const total = held.reduce((n, k) => n + k.count, 0);
    if (total === 0) return this.answer(c.chatId, REPLY.resumed, 'resumed');
    const kinds = held.map((k) => `${k.count} ${k.kind.replace(/_/g, ' ')}`).join(', ');
    return this.answer(
      c.chatId,
      `${REPLY.resumed}\nHeld back while paused since ${utc(since!)}: ${total} alert${total === 1 ? '' : 's'} ` +
        `(${kinds}). /history lists the last ones.`,
      'resumed',
    );
  }

  private async history(c: Context, account: TelegramChatAccount): Promise<BotOutcome> {
    const [page, watches] = await Promise.all([
      this.alerts.page(account.accountId, 10),
      this.watches.list(account.accountId),
    ]);
    if (page.alerts.length === 0) return this.answer(c.chatId, REPLY.noAlerts, 'history');
    const names = new Map(watches.map((w) => [w.id, w]));
    const blocks = page.alerts.map((a) => {
      const watch = a.watchId ? names.get(a.watchId) : undefined;
      const about = watch ? watchName(watch) : a.wallet ? `<code>${a.wallet}</code>` : 'protocol';
      const deliveries = a.deliveries.map(
        (d) =>
          `${d.channelKind}${d.channelLabel ? ` (${esc(d.channelLabel)})` : ''}: ${d.status}${d.lastError ? ` (${esc(d.lastError.slice(0, 120))})` : ''}`,
      );
      return [
        `${utc(a.createdAt)} · <b>${a.kind.replace(/_/g, ' ')}</b> · ${about}`,
        ...(deliveries.length > 0 ? deliveries : ['not delivered to any channel']),
      ].join('\n');
    });
    return this.answer(
      c.chatId,
      fitMessage('<b>Last alerts</b>', blocks, (n) => `… and ${n} more (GET /api/alerts lists them all).`),
      'history',
    );
  }

  /**
   * The account's API token, shown once in the owner's private chat (a new one each time: the earlier one stops
   * working).
   */
  private async token(c: Context, account: TelegramChatAccount): Promise<BotOutcome> {
    const delivered = await this.accounts.replaceToken(account.accountId, async (token) => {
      try {
        await this.client.sendMessage(c.userId, REPLY.token(token, this.config.ALERTS_BASE_URL));
        return true;
      } catch (error) {
        if (error instanceof TelegramApiError && (error.status === 403 || error.status === 400)) return false;
        throw error;
      }
    });
    if (c.message.chat.type === 'private') return delivered ? 'token_sent' : 'ignored';
    return delivered
      ? this.answer(c.chatId, REPLY.tokenSentPrivately, 'token_sent')
      : this.answer(c.chatId, REPLY.tokenNeedsPrivateChat(this.identity.username), 'token_needs_private_chat');
  }

  private async withWatch(
    c: Context,
    account: TelegramChatAccount,
    ref: string,
    then: (watch: WatchView) => Promise<BotOutcome>,
  ): Promise<BotOutcome> {
    if (!ref) return this.answer(c.chatId, REPLY.usage(c.spec.command), 'usage');
    const matches = await this.watches.match(account.accountId, ref);
    if (matches.length === 0) return this.answer(c.chatId, REPLY.noMatch(ref), 'no_match');
    if (matches.length > 1) return this.answer(c.chatId, REPLY.ambiguous(ref), 'ambiguous');
    return then(matches[0]!);
  }

  private async answer(
    chatId: string,
    html: string,
    outcome: BotOutcome,
    keyboard?: Parameters<TelegramBotClient['sendMessage']>[2],
  ): Promise<BotOutcome> {
    await this.send(() => this.client.sendMessage(chatId, html, keyboard));
    return outcome;
  }

  private async toast(id: string, text: string, outcome: BotOutcome, alert = false): Promise<BotOutcome> {
    await this.send(() => this.client.answerCallbackQuery(id, text || undefined, alert));
    return outcome;
  }

  /**
   * A reply Telegram refuses (the chat blocked the bot, a 4xx) is logged; network errors propagate so the update is
   * handled again.
   */
  private async send(call: () => Promise<unknown>): Promise<void> {
    try {
      await call();
    } catch (error) {
      if (!(error instanceof TelegramApiError)) throw error;
      this.logger.warn(`bot reply not delivered: ${error.message}`);
    }
  }
}
