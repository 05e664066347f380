export * from './fault-lab';
export * from './fault-report';
export * from './intent-burst';
export * from './pg-fault-proxy';
export * from './private-redis';
export * from './schedules';
export * from './deliveries';
export * from './probes';
