"use client";

export { default } from "../_components/error-panel";
