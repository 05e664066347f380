export * from './apps';
export * from './edge-proxy';
export * from './node-options';
export * from './services';
export * from './source-addresses';
export * from './stack';
export * from './test-stack';
export * from './fakes';
