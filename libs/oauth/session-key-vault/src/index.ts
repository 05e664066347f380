export * from './session-key-vault';
export * from './dev-key';
