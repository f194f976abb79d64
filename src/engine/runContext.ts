/**
 * The context a request runs in within a matrix run: the tenant of the cell (for requests that name no
 * single tenant) and the data row whose columns are its variables. Results chain within a context:
 * a request reads the answer its own tenant (and row) got, else one every tenant shares (a request
 * pinned to one tenant, or run with none). No `vscode` here.
 */

/** One row of a data file (`--data`, `# @data`): its 1-based number, its label column's value, its columns. */
export interface DataRow {
  number: number;
  label?: string;
  values: Readonly<Record<string, string>>;
}

export interface RunCell {
  /** The tenant (code, description or id) of this cell; undefined: the request's own, else the active one. */
  tenant?: string;
  row?: DataRow;
}

/** Where results are kept: `tenant` for the cell's tenant, `shared` for what every tenant of its row reads. */
export function contextKeys(documentKey: string, cell: RunCell | undefined): { tenant: string; shared: string } {
  const shared = cell?.row ? `${documentKey}#row=${cell.row.number}` : documentKey;
  return { shared, tenant: cell?.tenant === undefined ? shared : `${shared}#tenant=${cell.tenant.toLowerCase()}` };
}
