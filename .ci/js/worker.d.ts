// What service/http/page.py writes above service/page/sw.js when it serves it.
declare const VERSION: string;
declare const ROOT: string;
declare const FILES: string[];
