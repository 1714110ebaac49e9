export { openApi as GET } from "@/lib/partner-api";
