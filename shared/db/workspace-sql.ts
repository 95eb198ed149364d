import type {
  AliasedSelectQueryBuilder,
  ColumnType,
  DeleteQueryBuilder,
  DeleteResult,
  InsertObject,
  InsertQueryBuilder,
  InsertResult,
  Kysely,
  Selectable,
  SelectQueryBuilder,
  UpdateQueryBuilder,
  UpdateResult,
} from 'kysely';
import type { EntityManager } from './orm.js';
import { sqlOf, type CrmDatabase, type GlobalDatabase, type GlobalTable, type Sql, type WorkspaceTable } from './sql.js';

/** A workspace-owned table as the bound builder sees it: a row's workspace never changes. */
type BoundRow<Row> = { [C in keyof Row]: C extends 'workspace_id' ? ColumnType<string, string, never> : Row[C] };

/**
 * What one bound query can name: the global tables and its own workspace table (under
 * its alias, if any). Another workspace table is not there, so joining or subquerying one
 * without its workspace does not compile; join {@link WorkspaceSql.table} instead.
 */
export type ScopedDatabase<T extends WorkspaceTable, A extends string = T> = {
  [K in GlobalTable | A]: K extends A ? BoundRow<CrmDatabase[T]> : K extends GlobalTable ? GlobalDatabase[K] : never;
};

/** A workspace table, optionally aliased: `'stages'` or `'stages as s'`. */
export type ScopedFrom = WorkspaceTable | `${WorkspaceTable} as ${string}`;
type TableOf<TE extends ScopedFrom> = TE extends `${infer T extends WorkspaceTable} as ${string}` ? T : Extract<TE, WorkspaceTable>;
type AliasOf<TE extends ScopedFrom> = TE extends `${string} as ${infer A}` ? A : TE;
type DbOf<TE extends ScopedFrom> = ScopedDatabase<TableOf<TE>, AliasOf<TE>>;
type TbOf<TE extends ScopedFrom> = Extract<AliasOf<TE>, keyof DbOf<TE>>;

/** A bound select on `TE`; `O` is what it selects so far (for helpers that add conditions). */
export type ScopedSelect<TE extends ScopedFrom, O = Record<never, never>> = SelectQueryBuilder<DbOf<TE>, TbOf<TE>, O>;
export type ScopedUpdate<TE extends ScopedFrom> = UpdateQueryBuilder<DbOf<TE>, TbOf<TE>, TbOf<TE>, UpdateResult>;
export type ScopedDelete<TE extends ScopedFrom> = DeleteQueryBuilder<DbOf<TE>, TbOf<TE>, DeleteResult>;
export type ScopedInsertRow<T extends WorkspaceTable> = InsertObject<ScopedDatabase<T>, T>;

export interface ScopedInsert<T extends WorkspaceTable> {
  /**
   * Each row names the bound workspace (`workspace_id: db.workspaceId`); another value
   * throws before anything is sent. Checked rather than added, so rows are not copied.
   */
  values(rows: ScopedInsertRow<T> | readonly ScopedInsertRow<T>[]): InsertQueryBuilder<ScopedDatabase<T>, T, InsertResult>;
}

/**
 * Typed SQL bound to one workspace (the one the caller's credential resolved). Every
 * statement on a workspace-owned table carries `<table>.workspace_id = <workspace>`, and
 * inserts write it, so a worker cannot forget it.
 */
export interface WorkspaceSql {
  readonly workspaceId: string;
  selectFrom<TE extends ScopedFrom>(from: TE): ScopedSelect<TE>;
  updateTable<TE extends ScopedFrom>(table: TE): ScopedUpdate<TE>;
  deleteFrom<TE extends ScopedFrom>(from: TE): ScopedDelete<TE>;
  insertInto<T extends WorkspaceTable>(table: T): ScopedInsert<T>;
  /**
   * Another workspace table to join, as the workspace's rows only: a derived table
   * (`(select * from t where workspace_id = …) as alias`) that Postgres flattens into a
   * plain join, so the plan is that of the join with the extra condition.
   */
  table<T extends WorkspaceTable, A extends string>(table: T, alias: A): AliasedSelectQueryBuilder<Selectable<CrmDatabase[T]>, A>;
  /** The same workspace on another entity manager, e.g. the `tx` of `em.transactional`. */
  within(em: EntityManager): WorkspaceSql;
  /** Whether its statements run inside a transaction (bound to the `tx` of `em.transactional`). */
  readonly inTransaction: boolean;
  /** The global tables (users, workspaces…) on the same connection or transaction. */
  readonly global: Sql;
}

/** Untyped view of the tables for the implementation; the interface above carries the types. */
type LooseDatabase = Record<string, Record<string, unknown>>;

class BoundWorkspaceSql implements WorkspaceSql {
  constructor(
    private readonly em: EntityManager,
    readonly workspaceId: string,
  ) {}

  // The Kysely instance is asked for per statement, as sqlOf did: it follows the em's transaction.
  private loose(): Kysely<LooseDatabase> {
    return this.em.getKysely<LooseDatabase>();
  }

  selectFrom<TE extends ScopedFrom>(from: TE): ScopedSelect<TE> {
    return this.loose().selectFrom(from as string).where(workspaceColumn(from), '=', this.workspaceId) as unknown as ScopedSelect<TE>;
  }

  updateTable<TE extends ScopedFrom>(table: TE): ScopedUpdate<TE> {
    return this.loose().updateTable(table as string).where(workspaceColumn(table), '=', this.workspaceId) as unknown as ScopedUpdate<TE>;
  }

  deleteFrom<TE extends ScopedFrom>(from: TE): ScopedDelete<TE> {
    return this.loose().deleteFrom(from as string).where(workspaceColumn(from), '=', this.workspaceId) as unknown as ScopedDelete<TE>;
  }

  insertInto<T extends WorkspaceTable>(table: T): ScopedInsert<T> {
    const workspaceId = this.workspaceId;
    const kysely = this.loose();
    return {
      values: (rows) => {
        if (isRowList(rows)) for (const row of rows) requireWorkspace(row, workspaceId, table);
        else requireWorkspace(rows, workspaceId, table);
        return kysely.insertInto(table).values(rows) as unknown as InsertQueryBuilder<ScopedDatabase<T>, T, InsertResult>;
      },
    };
  }

  table<T extends WorkspaceTable, A extends string>(table: T, alias: A): AliasedSelectQueryBuilder<Selectable<CrmDatabase[T]>, A> {
    return this.loose().selectFrom(table as string).where(workspaceColumn(table), '=', this.workspaceId).selectAll().as(alias) as unknown as AliasedSelectQueryBuilder<
      Selectable<CrmDatabase[T]>,
      A
    >;
  }

  within(em: EntityManager): WorkspaceSql {
    return new BoundWorkspaceSql(em, this.workspaceId);
  }

  get global(): Sql {
    return sqlOf(this.em);
  }

  get inTransaction(): boolean {
    return this.em.isInTransaction();
  }
}

/** `workspace_id` of the table or of its alias (`'stages as s'` → `s.workspace_id`). */
function workspaceColumn(from: string): string {
  const as = from.lastIndexOf(' as ');
  return `${as === -1 ? from : from.slice(as + 4)}.workspace_id`;
}

function requireWorkspace(row: object, workspaceId: string, table: string): void {
  if ((row as { workspace_id?: unknown }).workspace_id !== workspaceId) throw new Error(`A row for ${table} names another workspace than the one the query is bound to.`);
}

function isRowList<R>(rows: R | readonly R[]): rows is readonly R[] {
  return Array.isArray(rows);
}

/** Typed SQL bound to `workspaceId` on `em` (and its transaction); cheap enough to build per request. */
export function workspaceSql(em: EntityManager, workspaceId: string): WorkspaceSql {
  return new BoundWorkspaceSql(em, workspaceId);
}
