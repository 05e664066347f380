export * from './query-rows';
