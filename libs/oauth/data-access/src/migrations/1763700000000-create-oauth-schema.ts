import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateOauthSchema1763700000000 implements MigrationInterface {
  name = 'CreateOauthSchema1763700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE SCHEMA IF NOT EXISTS "oauth"');
  }

  async down(): Promise<void> {
    // The schema itself is dropped by hand; later migrations drop their own objects.
  }
}
