import 'reflect-metadata';
import { runApp } from '@paper/nest-infra';
import { AppModule } from './app/app.module';
import { venueSimConfigSchema } from './config/venue-sim.config';

void runApp({
  name: 'venue-sim',
  schema: venueSimConfigSchema,
  module: (config) => AppModule.forRoot(config),
  // Plain `{ code, message }` errors, like the venue (not the tool envelope).
  errorStyle: 'alerts',
});
