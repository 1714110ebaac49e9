// Every register Finca knows, one module each (./<id>/, one value): the list the region table and
// everything derived from it are made of. Adding a register is its folder and one line here.
export { andalucia } from "./andalucia";
export { aragon } from "./aragon";
export { asturias } from "./asturias";
export { canarias } from "./canarias";
export { cantabria } from "./cantabria";
export { castillaLaMancha } from "./castilla-la-mancha";
export { castillaLeon } from "./castilla-leon";
export { catastro } from "./catastro";
export { catastroCat } from "./catastro-cat";
export { catastroInspire } from "./catastro-inspire";
export { galicia } from "./galicia";
export { gvaCee } from "./gva-cee";
export { gvaGesiee } from "./gva-gesiee";
export { icaen } from "./icaen";
export { laRioja } from "./la-rioja";
export { madridCee } from "./madrid-cee";
export { madridIte } from "./madrid-ite";
