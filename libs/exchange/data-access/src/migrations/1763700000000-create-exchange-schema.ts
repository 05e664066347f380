import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateExchangeSchema1763700000000 implements MigrationInterface {
  name = 'CreateExchangeSchema1763700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE SCHEMA IF NOT EXISTS "exchange"');
  }

  async down(): Promise<void> {
    // The schema itself is dropped by hand; later migrations drop their own objects.
  }
}
