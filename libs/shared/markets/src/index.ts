export * from './market-names';
