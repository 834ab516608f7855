import { type CatalogueFacts, type CatalogueResults, type CatalogueSearch, searchTitles } from "../../../shared/catalogue";
import type { LoadedCatalogue } from "./store";

/** What the landing page shows of the catalogue in one language. */
export function catalogueFacts(catalogue: LoadedCatalogue, rights: string | null): CatalogueFacts {
  return { total: catalogue.titles.length, categories: catalogue.categories, wall: catalogue.wall, rights };
}

/** One page of the catalogue page's search. */
export function catalogueResults(catalogue: LoadedCatalogue, search: CatalogueSearch): CatalogueResults {
  const { found, pages, page } = searchTitles(catalogue.titles, catalogue.foldedNames, search);
  return { search: { ...search, page: Math.min(search.page, pages) }, found, pages, titles: page };
}
