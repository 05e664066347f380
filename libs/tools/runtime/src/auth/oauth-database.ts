import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { createOauthDataSource } from '@paper/oauth-data';
import type { DataSource } from 'typeorm';
import { TOOLS_RUNTIME_OPTIONS, type ToolsRuntimeOptions } from '../runtime-options';

/**
 * The runtime's small pool on the `oauth` schema (owned by oauth-server): which connections (grants) are
 * live, their encrypted session keys, and the clients' requests for scopes. Connected on first use.
 */
@Injectable()
export class OauthDatabase implements OnApplicationShutdown {
  private dataSource?: Promise<DataSource>;

  constructor(@Inject(TOOLS_RUNTIME_OPTIONS) private readonly options: ToolsRuntimeOptions) {}

  get(): Promise<DataSource> {
    this.dataSource ??= (async () => {
      const ds = createOauthDataSource({
        url: this.options.databaseUrl,
        poolSize: 4,
        applicationName: 'tools-runtime-oauth',
      });
      try {
        return await ds.initialize();
      } catch (error) {
        this.dataSource = undefined;
        throw error;
      }
    })();
    return this.dataSource;
  }

  async onApplicationShutdown(): Promise<void> {
    const ds = await this.dataSource?.catch(() => undefined);
    if (ds?.isInitialized) await ds.destroy();
  }
}
