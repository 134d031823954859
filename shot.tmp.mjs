import { chromium } from 'playwright-core';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless=new','--no-sandbox','--disable-gpu'] });
const p = await b.newPage({ viewport: { width: 1200, height: 900 } });
const errs = [];
p.on('console', m => errs.push(m.type()+': '+m.text()));
await p.goto('file://' + process.argv[2]);
await p.screenshot({ path: process.argv[3], fullPage: true });
console.log(errs);
await b.close();
