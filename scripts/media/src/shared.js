// Shared helpers for the media slides (see ../make-media.sh).
// Replaces <i data-icon="name"></i>, <i data-logo></i> and
// <div data-posters="id,id,..." data-kind="poster|card"></div> placeholders.
// Film titles are fictional and are names of places or stars, spelt alike in the site's four
// languages: the media carry no sentence and no word of one language (the video's narration is
// its captions, one track per language, built by the server from locales/*.json).
const FILMS = {
  "night-drive": "Vega",
  "ocean-deep": "Atlantis",
  "the-summit": "Everest",
  "neon-city": "Tokyo",
  "desert-bloom": "Sahara",
  "aurora": "Borealis",
  "red-planet": "Mars",
  "last-signal": "Orion",
  "wild-coast": "Atlas",
  "blue-hour": "Kyoto",
  "glass-garden": "Eden",
  "polar-light": "Polaris",
};

const ICONS = {
  home: '<path d="M3 10.5 12 3l9 7.5V20a1 1 0 0 1-1 1h-5v-6H9v6H4a1 1 0 0 1-1-1z"/>',
  search: '<circle cx="11" cy="11" r="7"/><path d="m20 20-3.5-3.5"/>',
  download: '<path d="M12 3v12M7 10l5 5 5-5M4 21h16"/>',
  heart: '<path d="M12 20s-7-4.4-9-9a4.5 4.5 0 0 1 9-3 4.5 4.5 0 0 1 9 3c-2 4.6-9 9-9 9z"/>',
  sliders: '<path d="M4 6h10M18 6h2M4 12h4M12 12h8M4 18h12"/><circle cx="16" cy="6" r="2"/><circle cx="10" cy="12" r="2"/><circle cx="18" cy="18" r="2"/>',
  play: '<path d="M7 4.5v15l12.5-7.5z" fill="currentColor"/>',
  pause: '<rect x="6" y="4.5" width="4" height="15" rx="1" fill="currentColor"/><rect x="14" y="4.5" width="4" height="15" rx="1" fill="currentColor"/>',
  plus: '<path d="M12 5v14M5 12h14"/>',
  info: '<circle cx="12" cy="12" r="9"/><path d="M12 11v5M12 8h.01"/>',
  mic: '<rect x="9" y="3" width="6" height="11" rx="3"/><path d="M5 11a7 7 0 0 0 14 0M12 18v3"/>',
  back: '<path d="M15 5l-7 7 7 7"/>',
  rewind: '<path d="M4.5 12a7.5 7.5 0 1 0 2.2-5.3L4.5 9"/><path d="M4.5 4.5V9H9"/><text x="12.3" y="15" font-size="7" font-weight="800" text-anchor="middle" fill="currentColor" stroke="none" font-family="Inter">10</text>',
  forward: '<path d="M19.5 12a7.5 7.5 0 1 1-2.2-5.3L19.5 9"/><path d="M19.5 4.5V9H15"/><text x="11.7" y="15" font-size="7" font-weight="800" text-anchor="middle" fill="currentColor" stroke="none" font-family="Inter">10</text>',
  cc: '<rect x="3" y="5" width="18" height="14" rx="2.5"/><path d="M7 11h3M13 11h4M7 15h6M15 15h2"/>',
  volume: '<path d="M4 9v6h4l5 4V5L8 9z"/><path d="M16.5 8.5a5 5 0 0 1 0 7M19 6a8.5 8.5 0 0 1 0 12"/>',
  cast: '<path d="M3 8V6a1 1 0 0 1 1-1h16a1 1 0 0 1 1 1v12a1 1 0 0 1-1 1h-6"/><path d="M3 12a7 7 0 0 1 7 7M3 16a3 3 0 0 1 3 3"/><path d="M3 19h.01"/>',
  full: '<path d="M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5"/>',
  check: '<path d="m5 12.5 4.5 4.5L19 7.5"/>',
  flame: '<path d="M12 3c1 4 5 5.5 5 10a5 5 0 0 1-10 0c0-2.5 1.5-4 2.5-5 .2 2 1.2 3 2 3 0-3-1-5 .5-8z"/>',
  star: '<path d="m12 3 2.7 5.6 6.1.9-4.4 4.3 1 6.1L12 17l-5.4 2.9 1-6.1-4.4-4.3 6.1-.9z"/>',
  clock: '<circle cx="12" cy="12" r="9"/><path d="M12 7v5l3 2"/>',
  wifioff: '<path d="M2 8.8a15 15 0 0 1 4.2-2.6M10 5.1A15 15 0 0 1 22 8.8M5 12.6a10 10 0 0 1 3.5-2.3M15.5 10.7a10 10 0 0 1 3.5 1.9M8.5 16.4a5 5 0 0 1 7 0M12 20h.01M3 3l18 18"/>',
  phone: '<rect x="7" y="2.5" width="10" height="19" rx="2.5"/><path d="M11 18.5h2"/>',
  tablet: '<rect x="4" y="3" width="16" height="18" rx="2.5"/><path d="M11 18h2"/>',
  laptop: '<rect x="4.5" y="5" width="15" height="10.5" rx="1.5"/><path d="M2 19h20"/>',
  tv: '<rect x="3" y="4" width="18" height="13" rx="2"/><path d="M8 21h8M12 17v4"/>',
  sync: '<path d="M4 12a8 8 0 0 1 14-5.3L20 9M20 4v5h-5M20 12a8 8 0 0 1-14 5.3L4 15M4 20v-5h5"/>',
  infinity: '<path d="M8 8.5a3.5 3.5 0 1 0 0 7c2.5 0 5.5-7 8-7a3.5 3.5 0 1 1 0 7c-2.5 0-5.5-7-8-7z"/>',
  bell: '<path d="M6 16v-5a6 6 0 0 1 12 0v5l2 2H4z"/><path d="M10 21h4"/>',
  grid: '<rect x="4" y="4" width="6.5" height="6.5" rx="1.5"/><rect x="13.5" y="4" width="6.5" height="6.5" rx="1.5"/><rect x="4" y="13.5" width="6.5" height="6.5" rx="1.5"/><rect x="13.5" y="13.5" width="6.5" height="6.5" rx="1.5"/>',
};

// Animation states are selected with URL-hash parameters, e.g. slide-2-search.html#q=oc
const PARAMS = new URLSearchParams(location.hash.slice(1));

let logoSeq = 0;
function logoSvg(size) {
  const id = `lg${logoSeq++}`;
  return `<svg class="logo" width="${size}" height="${size}" viewBox="0 0 64 64"><defs><linearGradient id="${id}" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#7c5cff"/><stop offset="1" stop-color="#ff4d8d"/></linearGradient></defs><rect width="64" height="64" rx="16" fill="url(#${id})"/><path d="M25 20v24l20-12z" fill="#fff" stroke="#fff" stroke-width="4" stroke-linejoin="round"/></svg>`;
}

function posterHtml(id, kind, extra) {
  const title = FILMS[id] || id;
  const cls = kind === "card" ? "poster card" : "poster";
  return `<div class="${cls}" data-film="${id}"><div class="art art-${id}"><u></u><i></i><b></b><s></s></div><div class="pt">${title}</div>${extra || ""}</div>`;
}

function hydrate(root) {
  root.querySelectorAll("[data-icon]").forEach((el) => {
    el.outerHTML = `<svg class="ic ${el.className}" viewBox="0 0 24 24" style="${el.getAttribute("style") || ""}">${ICONS[el.dataset.icon]}</svg>`;
  });
  root.querySelectorAll("[data-logo]").forEach((el) => {
    el.outerHTML = logoSvg(el.dataset.logo || 40).replace('class="logo"', `class="logo ${el.className}"`);
  });
  root.querySelectorAll("[data-posters]").forEach((el) => {
    const kind = el.dataset.kind || "poster";
    el.innerHTML = el.dataset.posters.split(",").map((s) => {
      const [id, prog] = s.trim().split(":");
      const extra = prog ? `<div class="prog"><i style="width:${prog}%"></i></div>` : "";
      return posterHtml(id, kind, extra);
    }).join("");
  });
}
hydrate(document);
