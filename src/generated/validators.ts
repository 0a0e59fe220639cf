/**
 * GENERATED FILE, DO NOT EDIT.
 * Source: spec/openapi.yaml, by Ajv's standalone code (scripts/generate-validators.ts). Regenerate with `npm run generate`;
 * `npm test` fails while this file differs from a fresh generation.
 */

// @ts-nocheck: Ajv's output, checked by Ajv's own tests and by ours, not typed.
import { FORMATS as runtimeFormats, ucs2length as runtimeUcs2length } from '../contract/validator-runtime.js';
import { type ContractValidators, itemsReferencing, referencing } from '../contract/validators.js';
export const v0 = validate0;
const formats0 = runtimeFormats.int64;
const formats4 = runtimeFormats["date-time"];

function validate0(data, {instancePath=""}={}){
let vErrors = null;
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.id !== undefined){
let data0 = data.id;
if(!(Number.isInteger(data0))){
(vErrors ??= []).push({instancePath:instancePath+"/id",schemaPath:"#/properties/id/type",keyword:"type",params:{type: "integer"}});
}
if((typeof data0 == "number") && (isFinite(data0))){
if(!(formats0.validate(data0))){
(vErrors ??= []).push({instancePath:instancePath+"/id",schemaPath:"#/properties/id/format",keyword:"format",params:{format: "int64"},message:"must match format \""+"int64"+"\""});
}
}
}
if(data.petId !== undefined){
let data1 = data.petId;
if(!(Number.isInteger(data1))){
(vErrors ??= []).push({instancePath:instancePath+"/petId",schemaPath:"#/properties/petId/type",keyword:"type",params:{type: "integer"}});
}
if((typeof data1 == "number") && (isFinite(data1))){
if(!(formats0.validate(data1))){
(vErrors ??= []).push({instancePath:instancePath+"/petId",schemaPath:"#/properties/petId/format",keyword:"format",params:{format: "int64"},message:"must match format \""+"int64"+"\""});
}
}
}
if(data.quantity !== undefined){
let data2 = data.quantity;
if(!(Number.isInteger(data2))){
(vErrors ??= []).push({instancePath:instancePath+"/quantity",schemaPath:"#/properties/quantity/type",keyword:"type",params:{type: "integer"}});
}
}
if(data.shipDate !== undefined){
let data3 = data.shipDate;
if(typeof data3 === "string"){
if(!(formats4.validate(data3))){
(vErrors ??= []).push({instancePath:instancePath+"/shipDate",schemaPath:"#/properties/shipDate/format",keyword:"format",params:{format: "date-time"},message:"must match format \""+"date-time"+"\""});
}
}
else {
(vErrors ??= []).push({instancePath:instancePath+"/shipDate",schemaPath:"#/properties/shipDate/type",keyword:"type",params:{type: "string"}});
}
}
if(data.complete !== undefined){
if(typeof data.complete !== "boolean"){
(vErrors ??= []).push({instancePath:instancePath+"/complete",schemaPath:"#/properties/complete/type",keyword:"type",params:{type: "boolean"}});
}
}
}
else {
(vErrors ??= []).push({instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"}});
}
validate0.errors = vErrors;
return vErrors === null;
}

export const v1 = validate1;
const func0 = runtimeUcs2length;

function validate1(data, {instancePath=""}={}){
let vErrors = null;
if(data && typeof data == "object" && !Array.isArray(data)){
for(const prop0 of ["code","message","status"]){
if(data[prop0] === undefined){
(vErrors ??= []).push({instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: prop0},message:"must have required property '"+prop0+"'"});
}
}
if(data.code !== undefined){
let data0 = data.code;
if(typeof data0 === "string"){
if(func0(data0) < 1){
(vErrors ??= []).push({instancePath:instancePath+"/code",schemaPath:"#/properties/code/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"});
}
}
else {
(vErrors ??= []).push({instancePath:instancePath+"/code",schemaPath:"#/properties/code/type",keyword:"type",params:{type: "string"}});
}
}
if(data.message !== undefined){
if(typeof data.message !== "string"){
(vErrors ??= []).push({instancePath:instancePath+"/message",schemaPath:"#/properties/message/type",keyword:"type",params:{type: "string"}});
}
}
if(data.status !== undefined){
let data2 = data.status;
if(!(Number.isInteger(data2))){
(vErrors ??= []).push({instancePath:instancePath+"/status",schemaPath:"#/properties/status/type",keyword:"type",params:{type: "integer"}});
}
if((typeof data2 == "number") && (isFinite(data2))){
if(data2 > 599 || isNaN(data2)){
(vErrors ??= []).push({instancePath:instancePath+"/status",schemaPath:"#/properties/status/maximum",keyword:"maximum",params:{comparison: "<=", limit: 599}});
}
if(data2 < 100 || isNaN(data2)){
(vErrors ??= []).push({instancePath:instancePath+"/status",schemaPath:"#/properties/status/minimum",keyword:"minimum",params:{comparison: ">=", limit: 100}});
}
}
}
}
else {
(vErrors ??= []).push({instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"}});
}
validate1.errors = vErrors;
return vErrors === null;
}

export const v2 = validate2;

function validate2(data, {instancePath=""}={}){
let vErrors = null;
if(data && typeof data == "object" && !Array.isArray(data)){
}
else {
(vErrors ??= []).push({instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"}});
}
validate2.errors = vErrors;
return vErrors === null;
}

export const v3 = validate3;

function validate3(data, {instancePath=""}={}){
let vErrors = null;
if(!(Number.isInteger(data))){
(vErrors ??= []).push({instancePath,schemaPath:"#/type",keyword:"type",params:{type: "integer"}});
}
if((typeof data == "number") && (isFinite(data))){
if(!(formats0.validate(data))){
(vErrors ??= []).push({instancePath,schemaPath:"#/format",keyword:"format",params:{format: "int64"},message:"must match format \""+"int64"+"\""});
}
}
validate3.errors = vErrors;
return vErrors === null;
}


/** Every validator of the document, by the keys the contract looks them up by. */
export const VALIDATORS: ContractValidators = {
  schemas: {
    "Order": v0,
    "Error": v1,
    "Pet": v2,
  },
  responseBodies: {
    "listOrders 200": /* @__PURE__ */ itemsReferencing(v0, "https://petstore.contract/components/schemas/Order"),
    "listOrders 401": /* @__PURE__ */ referencing(v1, "https://petstore.contract/components/schemas/Error"),
    "cancelOrder 401": /* @__PURE__ */ referencing(v1, "https://petstore.contract/components/schemas/Error"),
    "cancelOrder 404": /* @__PURE__ */ referencing(v1, "https://petstore.contract/components/schemas/Error"),
    "cancelOrder 409": /* @__PURE__ */ referencing(v1, "https://petstore.contract/components/schemas/Error"),
    "getPet 200": /* @__PURE__ */ referencing(v2, "https://petstore.contract/components/schemas/Pet"),
    "getPet 401": /* @__PURE__ */ referencing(v1, "https://petstore.contract/components/schemas/Error"),
    "getPet 404": /* @__PURE__ */ referencing(v1, "https://petstore.contract/components/schemas/Error"),
  },
  parameters: {
    "cancelOrder path orderId": v3,
    "getPet path petId": v3,
  },
};
