import { CATALOGUE_LIMITS } from "../../shared/catalogue";
import { pathFor } from "../../shared/routes";
import { OwnerPicture, RightsStatement, useKindName } from "../components/catalogue";
import { Main, SiteFooter, SiteHeader } from "../components/layout";
import { useI18n } from "../i18n";

/**
 * Every title of the catalogue, searched with a plain GET form: the server answers each search
 * (works without JavaScript, the same page for everyone who asks the same), one page of results
 * at a time, posters loaded as they come on screen.
 */
export function CataloguePage() {
  const { t, data, locale } = useI18n();
  const kindName = useKindName();
  const results = data.catalogueResults;
  const { catalogue } = data;
  const base = pathFor("catalogue", locale);
  if (results === null) return null;
  const { search } = results;
  const linkTo = (page: number) => {
    const query = new URLSearchParams();
    if (search.q !== "") query.set("q", search.q);
    if (search.category !== "") query.set("category", search.category);
    if (page > 1) query.set("page", String(page));
    const text = query.toString();
    return text === "" ? base : `${base}?${text}`;
  };
  return (
    <>
      <SiteHeader />
      <Main className="page catalogue-page">
        <div className="container">
          <h1 className="page__title">{t("catalogue.pageTitle")}</h1>
          {catalogue.total === 0 ? (
            <p className="page__subtitle">{t("catalogue.empty")}</p>
          ) : (
            <>
              <p className="page__subtitle">{t("catalogue.total", { count: catalogue.total })}</p>
              {catalogue.rights === null ? null : <RightsStatement text={catalogue.rights} />}
              <form className="catalogue-search" method="get" action={base} role="search">
                <div className="field">
                  <label htmlFor="catalogue-q">{t("catalogue.searchLabel")}</label>
                  <input id="catalogue-q" name="q" type="search" defaultValue={search.q} maxLength={CATALOGUE_LIMITS.search} />
                </div>
                <div className="field">
                  <label htmlFor="catalogue-category">{t("catalogue.categoryLabel")}</label>
                  <select id="catalogue-category" name="category" defaultValue={search.category}>
                    <option value="">{t("catalogue.allCategories")}</option>
                    {catalogue.categories.map((c) => (
                      <option key={c.name} value={c.name}>
                        {t("catalogue.categoryCount", { category: c.name, count: c.count })}
                      </option>
                    ))}
                  </select>
                </div>
                <button className="button button--primary" type="submit">
                  {t("catalogue.searchButton")}
                </button>
              </form>
              <p className="catalogue-page__found" role="status">
                {t("catalogue.found", { count: results.found })}
                {search.q !== "" || search.category !== "" ? (
                  <>
                    {" "}
                    <a href={base}>{t("catalogue.clear")}</a>
                  </>
                ) : null}
              </p>
              <ul className="title-list" aria-label={t("catalogue.resultsLabel")}>
                {results.titles.map((title, i) => (
                  <li key={`${i}-${title.name}`} className="title-list__item">
                    {title.poster === null ? (
                      <span className="title-list__blank" aria-hidden="true" />
                    ) : (
                      <OwnerPicture picture={title.poster} alt="" sizes="64px" className="title-list__poster" />
                    )}
                    <span className="title-list__text">
                      <span className="title-list__name">{title.name}</span>
                      <span className="title-list__meta">
                        {kindName(title.kind)}
                        {title.year === null ? "" : ` · ${title.year}`} · {title.category}
                      </span>
                    </span>
                  </li>
                ))}
              </ul>
              {results.pages > 1 ? (
                <nav className="pager" aria-label={t("catalogue.pagesLabel")}>
                  {search.page > 1 ? (
                    <a className="button button--ghost" href={linkTo(search.page - 1)} rel="prev">
                      {t("catalogue.previous")}
                    </a>
                  ) : null}
                  <span>{t("catalogue.pageOf", { page: search.page, pages: results.pages })}</span>
                  {search.page < results.pages ? (
                    <a className="button button--ghost" href={linkTo(search.page + 1)} rel="next">
                      {t("catalogue.next")}
                    </a>
                  ) : null}
                </nav>
              ) : null}
            </>
          )}
        </div>
      </Main>
      <SiteFooter />
    </>
  );
}
