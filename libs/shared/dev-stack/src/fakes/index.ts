export * from './http-fake';
export * from './webhook-receiver.fake';
export * from './discord.fake';
export * from './telegram.fake';
export * from './webhook-verifiers';
