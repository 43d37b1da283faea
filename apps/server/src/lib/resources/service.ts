// The generic service of a resource: the rules around its repository. Who may call each operation, which
// records a caller sees, the module's checks and derived columns, one transaction per write with its audit
// row, and the change told after the commit (through the store).
import type { SQL } from 'drizzle-orm';
import type { CsvExportQuery, ListResponse } from '@careplane/shared/common/http';
import { columnRelations } from '@careplane/shared/common/list-columns';
import { recordLabels } from '@careplane/shared/common/label-context';
import { columnTitle } from '@careplane/shared/i18n/column-titles';
import { DEFAULT_LANGUAGE, type Language } from '@careplane/shared/i18n/languages';
import { CSV_BOM, csvFileName, csvLine } from '../csv.js';
import { WrittenAnswer } from '../response-serializer.js';
import type { ActionContext } from '../audit.js';
import { accessRules, type AccessRule, type Caller } from '../caller.js';
import type { Executor } from '@/db/client.js';
import { badRequest, notFound, serviceTexts } from '../errors.js';
import type { Store, WriteScope } from '../store.js';
import type { ResourceDefinition } from './definition.js';
import { buildListSql } from './filters.js';
import { unknownLinkedRecords } from './links.js';
import { createResourceRepository, type ListPage, type Row } from './repository.js';

/** A list as a route answers it: written by the database (decision 058), or to be written by the route. */
export type ListAnswer<Item> = WrittenAnswer<ListResponse<Item>> | ListResponse<Item>;

export type ResourceOperation = 'list' | 'read' | 'create' | 'update' | 'delete';
export type WriteMode = 'create' | 'update';

/** A body mapped onto columns: references renamed to their foreign keys, link lists set apart. */
export interface WritePlan {
  values: Row;
  links: Record<string, string[]>;
}

export interface ResourceRules<Create, Update> {
  /** Who may call each operation (default: admins only, decisions §4). */
  access?: Partial<Record<ResourceOperation, AccessRule>>;
  /** The records a caller may see and change; the others answer 404 as if they did not exist. */
  scope?: (caller: Caller | null) => SQL | undefined;
  /**
   * Whether a caller may embed what the related records lead to in turn (`relations=a.b`); default yes. A
   * participant sees the records it takes part in and who else does, not what those people lead to.
   */
  nestedRelations?: (caller: Caller | null) => boolean;
  /** Extra columns derived from the body (a hashed secret, a merged object); runs before the transaction. */
  derive?: (body: Create | Update, mode: WriteMode, context: ActionContext) => Row | Promise<Row>;
  /**
   * Runs inside the write's transaction once the record is written (after a delete: gone): for what must
   * change together with it, such as a user's sign-in identity. `before` is the stored row (null on create).
   */
  afterWrite?: (
    scope: WriteScope,
    write: { operation: 'create' | 'update' | 'delete'; id: string; before: Row | null; values: Row },
  ) => Promise<void>;
  /** Checks that need the stored record or other records, inside the write's transaction; throw to refuse. */
  check?: (
    executor: Executor,
    plan: WritePlan,
    mode: WriteMode,
    existing: Row | null,
    context: ActionContext,
  ) => Promise<void>;
}

export interface ReadOptions {
  relations: readonly string[];
}

/** The plain mapping of a body onto columns: references renamed, link lists set apart. */
export function planWrite(
  definition: Pick<ResourceDefinition, 'links' | 'references'>,
  body: object,
): WritePlan {
  const values: Row = {};
  const links: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined) continue;
    if (Object.hasOwn(definition.links, key)) {
      links[key] = [...new Set(value as string[])];
    } else if (definition.references && Object.hasOwn(definition.references, key)) {
      values[definition.references[key]!] = value;
    } else {
      values[key] = value;
    }
  }
  return { values, links };
}

export function createResourceService<Create extends object, Update extends object, Item>(
  store: Store,
  definition: ResourceDefinition<Create, Update, Item>,
  rules: ResourceRules<Create, Update> = {},
) {
  const repository = createResourceRepository(definition);
  const access: Record<ResourceOperation, AccessRule> = {
    list: accessRules.admin,
    read: accessRules.admin,
    create: accessRules.admin,
    update: accessRules.admin,
    delete: accessRules.admin,
    ...rules.access,
  };
  const scopeOf = (caller: Caller | null) => rules.scope?.(caller);

  /** A 400 for the relations of relations a caller may not embed (rules.nestedRelations). */
  function checkRelations(caller: Caller | null | undefined, relations: readonly string[]) {
    if (caller === undefined || !rules.nestedRelations || rules.nestedRelations(caller)) return;
    const nested = relations
      .flatMap((value) => value.split(','))
      .map((path) => path.trim())
      .filter((path) => path.includes('.'));
    if (nested.length) {
      throw badRequest(serviceTexts.relationsNotHere(nested), [
        { path: 'relations', message: 'Only relations of the record itself' },
      ]);
    }
  }
  const missing = () => notFound(definition.label);

  /** Every id a link list names must have a record to link: a 400 naming the field and the unknown ids. */
  async function checkLinkedRecords(executor: Executor, planned: WritePlan) {
    for (const [field, ids] of Object.entries(planned.links)) {
      const missing = await repository.missingLinkedIds(executor, field, ids);
      if (missing.length) throw unknownLinkedRecords(definition.links[field]!, missing);
    }
  }

  async function plan(body: Create | Update, mode: WriteMode, context: ActionContext) {
    const planned = planWrite(definition, body);
    if (rules.derive) Object.assign(planned.values, await rules.derive(body, mode, context));
    return planned;
  }

  async function list(page: ListPage, caller: Caller | null): Promise<ListResponse<Item>> {
    checkRelations(caller, page.relations);
    const { items, total } = await repository.list(store.db, page, scopeOf(caller));
    return { items, total, limit: page.limit, offset: page.offset };
  }

  /**
   * The list as the route answers it: written by the database when its answers can be (decision 058), else
   * the same list to be written by the route's serializer.
   */
  async function listAnswer(page: ListPage, caller: Caller | null): Promise<ListAnswer<Item>> {
    checkRelations(caller, page.relations);
    const found = await repository.listJson(store.db, page, scopeOf(caller));
    if (!found) return list(page, caller);
    return new WrittenAnswer<ListResponse<Item>>(
      '{"items":',
      found.items,
      `,"total":${found.total},"limit":${page.limit},"offset":${page.offset}}`,
    );
  }

  /**
   * The whole list as CSV, header first, streamed a page at a time: the columns of the console's table (or of
   * a named view), every record the query matches in the list's order, none outside the caller's scope.
   * The query is checked before anything is sent, so a bad filter is a 400, not a broken file.
   * Headers, enumeration values and Yes/No are written in `language` (English by default: the columns' own
   * titles); dates keep the common era in every language, so spreadsheets read them as dates (decision 047),
   * and are written in the query's time zone (UTC without one).
   */
  function exportCsv(query: CsvExportQuery, caller: Caller | null, language: Language = DEFAULT_LANGUAGE) {
    const csv = definition.csv;
    if (!csv) throw notFound('Export');
    const columns = query.view === undefined ? csv.columns : csv.views?.[query.view];
    if (!columns) {
      const known = Object.keys(csv.views ?? {});
      throw badRequest(serviceTexts.unknownView(String(query.view)), [
        {
          path: 'view',
          message: known.length ? `One of ${known.join(', ')}` : 'This list has no other views',
        },
      ]);
    }
    buildListSql(definition.list.query, query);
    const relations = columnRelations(columns);
    const scope = scopeOf(caller);
    const labels = recordLabels(language, { language, era: 'common' }, query.timeZone);
    // The list's name, as the file's: the titles of other languages are kept under it.
    const list = query.view ?? definition.name;
    async function* lines() {
      yield CSV_BOM + csvLine(columns!.map((column) => columnTitle(list, column, language)));
      for await (const page of repository.pages(store.db, { ...query, relations }, scope)) {
        let chunk = '';
        for (const item of page) chunk += csvLine(columns!.map((column) => column.value(item, labels)));
        yield chunk;
      }
    }
    return { fileName: csvFileName(list, new Date(), query.timeZone), lines: lines() };
  }

  /** One record; `caller` narrows to the records in its scope (none: any record, for the service itself). */
  async function read(id: string, options: ReadOptions, caller?: Caller | null): Promise<Item> {
    checkRelations(caller, options.relations);
    const scope = caller === undefined ? undefined : scopeOf(caller);
    const found = await repository.find(store.db, id, options.relations, scope);
    if (!found) throw missing();
    return found;
  }

  async function insertPlanned(scope: WriteScope, body: Create, planned: WritePlan): Promise<string> {
    const createdBy = definition.createdByColumn;
    if (createdBy && planned.values[createdBy] === undefined) {
      planned.values[createdBy] = scope.context.caller?.userId ?? null;
    }
    await checkLinkedRecords(scope.tx, planned);
    await rules.check?.(scope.tx, planned, 'create', null, scope.context);
    const id = await repository.insert(scope.tx, planned.values);
    await repository.replaceLinks(scope.tx, id, planned.links);
    await rules.afterWrite?.(scope, { operation: 'create', id, before: null, values: planned.values });
    await scope.audit({ action: 'create', resource: definition.name, recordId: id, changes: body as Row });
    return id;
  }

  /**
   * Creates inside a write already under way (one transaction with the caller's other changes). `columns`
   * are set beside the body's and recorded with it (secrets redacted): values only the service knows, such
   * as the hash of a token it generated.
   */
  async function createWithin(scope: WriteScope, body: Create, columns: Row = {}): Promise<string> {
    const planned = await plan(body, 'create', scope.context);
    Object.assign(planned.values, columns);
    return insertPlanned(scope, { ...body, ...columns }, planned);
  }

  async function create(body: Create, context: ActionContext): Promise<Item> {
    // Derived columns (a hashed secret) are computed before the transaction opens.
    const planned = await plan(body, 'create', context);
    const id = await store.write(context, (scope) => insertPlanned(scope, body, planned));
    return read(id, { relations: [] });
  }

  async function update(id: string, body: Update, context: ActionContext): Promise<Item> {
    const planned = await plan(body, 'update', context);
    await store.write(context, async (scope) => {
      const existing = await repository.lock(scope.tx, id, scopeOf(context.caller));
      if (!existing) throw missing();
      await checkLinkedRecords(scope.tx, planned);
      await rules.check?.(scope.tx, planned, 'update', existing, context);
      await repository.update(scope.tx, id, planned.values);
      await repository.replaceLinks(scope.tx, id, planned.links);
      await rules.afterWrite?.(scope, { operation: 'update', id, before: existing, values: planned.values });
      await scope.audit({ action: 'update', resource: definition.name, recordId: id, changes: body as Row });
    });
    return read(id, { relations: [] });
  }

  async function remove(id: string, context: ActionContext): Promise<void> {
    await store.write(context, async (scope) => {
      const before = await repository.remove(scope.tx, id, scopeOf(context.caller));
      if (!before) throw missing();
      await rules.afterWrite?.(scope, { operation: 'delete', id, before, values: {} });
      await scope.audit({ action: 'delete', resource: definition.name, recordId: id });
    });
  }

  return {
    definition,
    access,
    list,
    listAnswer,
    exportCsv,
    read,
    create,
    createWithin,
    update,
    remove,
    /** Ids among `ids` that have no record of this resource. */
    missingIds: (executor: Executor, ids: readonly string[]) => repository.missingIds(executor, ids),
  };
}

export type ResourceService<
  Create extends object = never,
  Update extends object = never,
  Item = unknown,
> = ReturnType<typeof createResourceService<Create, Update, Item>>;
