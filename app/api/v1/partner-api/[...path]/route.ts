// Unknown partner-API paths answer problem+json, not the portal's HTML 404.
import { notFound } from "@/lib/partner-api";

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE, notFound as OPTIONS };
