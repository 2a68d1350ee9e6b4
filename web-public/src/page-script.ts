/**
 * How a page rendered on the server hands over to the app in the browser: a JSON script element
 * of this id holds the API answers the page was rendered with, and its `data-modules` attribute
 * lists the app's modules for this page (the app, the page's chunk, its language's texts), which
 * the browser asks for together once the first screen has painted.
 */
export const PAGE_DATA_ID = 'page-data';
