import { hydrateRoot } from "react-dom/client";
import { App, APP_DATA_ID } from "./app";
import type { PageData } from "./page-data";

const script = document.getElementById(APP_DATA_ID);
if (script?.textContent) {
  const dataJson = script.textContent;
  const data: PageData = JSON.parse(dataJson);
  hydrateRoot(document, <App data={data} dataJson={dataJson} />);
}
