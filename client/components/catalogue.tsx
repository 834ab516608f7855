import type { Picture, ShownTitle, TitleKind } from "../../shared/catalogue";
import type { MessageKey } from "../../shared/i18n";
import { pathFor } from "../../shared/routes";
import { useI18n } from "../i18n";

// The app's catalogue on the pages: its posters as a wall (a row that scrolls sideways on a
// phone), its counts per category, and where its content comes from. Server HTML only: nothing
// here needs JavaScript, and only the posters on screen load (loading="lazy").

const KIND_KEYS: Record<TitleKind, MessageKey> = {
  film: "catalogue.kind.film",
  series: "catalogue.kind.series",
  channel: "catalogue.kind.channel",
  documentary: "catalogue.kind.documentary",
  show: "catalogue.kind.show",
  sport: "catalogue.kind.sport",
  kids: "catalogue.kind.kids",
};

export function useKindName() {
  const { t } = useI18n();
  return (kind: TitleKind) => t(KIND_KEYS[kind]);
}

/**
 * A picture in the formats the browser reads best (AVIF, then WebP, then JPEG) at the width its
 * box needs (`sizes`). Width and height hold its place, so nothing moves when it arrives.
 */
export function OwnerPicture({
  picture,
  alt,
  sizes,
  className,
  eager = false,
}: {
  picture: Picture;
  alt: string;
  sizes: string;
  className?: string;
  eager?: boolean;
}) {
  return (
    <picture className={className}>
      <source type="image/avif" srcSet={picture.avif} sizes={sizes} />
      <source type="image/webp" srcSet={picture.webp} sizes={sizes} />
      <img
        src={picture.fallback}
        width={picture.width}
        height={picture.height}
        alt={alt}
        loading={eager ? undefined : "lazy"}
        decoding="async"
      />
    </picture>
  );
}

/** A poster with its title's name, kind and year under it. */
function PosterCard({ title }: { title: ShownTitle }) {
  const kindName = useKindName();
  return (
    <li className="poster-card">
      {title.poster === null ? (
        <span className="poster-card__blank" aria-hidden="true" />
      ) : (
        // The name is said just below: the picture adds nothing for a screen reader.
        <OwnerPicture picture={title.poster} alt="" sizes="(min-width: 1024px) 180px, 140px" className="poster-card__image" />
      )}
      <span className="poster-card__name">{title.name}</span>
      <span className="poster-card__meta">
        {kindName(title.kind)}
        {title.year === null ? "" : ` · ${title.year}`}
      </span>
    </li>
  );
}

/** The rights statement: where the content comes from, in the owner's words. */
export function RightsStatement({ text }: { text: string }) {
  const { t } = useI18n();
  return (
    <aside className="rights" aria-labelledby="rights-title">
      <h3 id="rights-title">{t("catalogue.rightsTitle")}</h3>
      {text.split(/\n{2,}/).map((paragraph) => (
        <p key={paragraph}>{paragraph}</p>
      ))}
    </aside>
  );
}

/**
 * The landing page's catalogue: shown only once the owner published one (a page that named no
 * title at all is what made careful buyers doubt). The wall is a list a keyboard can scroll.
 */
export function CatalogueSection() {
  const { t, data, locale } = useI18n();
  const { catalogue } = data;
  if (catalogue.total === 0) return null;
  return (
    <section className="section catalogue" id="catalogue" aria-labelledby="catalogue-title">
      <div className="container">
        <div className="section-heading">
          <h2 id="catalogue-title">{t("catalogue.title")}</h2>
          <p>{t("catalogue.total", { count: catalogue.total })}</p>
        </div>
        {catalogue.wall.length > 0 ? (
          // Focusable: on a phone the row scrolls sideways, and a keyboard must reach what is past the edge.
          <ul className="poster-wall" aria-label={t("catalogue.wallLabel")} tabIndex={0}>
            {catalogue.wall.map((title, i) => (
              <PosterCard key={`${i}-${title.name}`} title={title} />
            ))}
          </ul>
        ) : null}
        <div className="catalogue__facts">
          <div>
            <h3 className="catalogue__subtitle">{t("catalogue.categoriesTitle")}</h3>
            <ul className="category-counts">
              {catalogue.categories.slice(0, 12).map((c) => (
                <li key={c.name}>
                  <a href={`${pathFor("catalogue", locale)}?category=${encodeURIComponent(c.name)}`}>
                    {t("catalogue.categoryCount", { category: c.name, count: c.count })}
                  </a>
                </li>
              ))}
            </ul>
            <p>
              <a className="button button--ghost" href={pathFor("catalogue", locale)}>
                {t("catalogue.seeAll")}
              </a>
            </p>
          </div>
          {catalogue.rights === null ? null : <RightsStatement text={catalogue.rights} />}
        </div>
      </div>
    </section>
  );
}
