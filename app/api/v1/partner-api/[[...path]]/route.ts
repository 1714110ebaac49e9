// Every partner-API path: the API's own dispatch routes it (operations table, 404, 405).
import { handlePartnerApi } from "@/server/partner-api";

export {
  handlePartnerApi as GET,
  handlePartnerApi as HEAD,
  handlePartnerApi as POST,
  handlePartnerApi as PUT,
  handlePartnerApi as PATCH,
  handlePartnerApi as DELETE,
  handlePartnerApi as OPTIONS,
};
