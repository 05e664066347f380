/**
 * Alerts accounts: watches, channels, alert history and their rules, served by alerts-api's HTTP API, MCP and Telegram
 * bot.
 */
export * from './alerts-accounts.module';
export * from './accounts/account-lock';
export * from './accounts/account-token';
export * from './accounts/account.dto';
export * from './accounts/accounts.service';
export * from './alerts/alert.dto';
export * from './alerts/alerts.service';
export * from './channels/channel-limit';
export * from './channels/channel-target';
export * from './channels/channel.dto';
export * from './channels/channel-health.dto';
export * from './channels/channels.service';
export * from './config/alerts-accounts.config';
export * from './errors/alerts.exception';
export * from './protocol-rules/protocol-rules.dto';
export * from './protocol-rules/protocol-rules.service';
export * from './telegram/telegram-chats.service';
export * from './validation/optional.decorator';
export * from './validation/validation';
export * from './watches/wallet-rules.dto';
export * from './watches/watch-view';
export * from './watches/watch.dto';
export * from './watches/watches.service';
